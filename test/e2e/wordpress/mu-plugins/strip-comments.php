<?php
/*
 * Plugin Name: blogctl e2e: strip HTML comments on save
 * Description: Test-only (switch "strip-comments"). Like minifying and "clean HTML" plugins: every HTML
 *              comment is removed from a post's content when it is saved, except the block editor's
 *              delimiters (<!-- wp:… -->).
 */
add_filter('wp_insert_post_data', function ($data) {
    if (!function_exists('blogctl_e2e_on') || !blogctl_e2e_on('strip-comments')) return $data;
    $data['post_content'] = preg_replace('/<!--(?!\s*\/?wp:).*?-->/s', '', $data['post_content']);
    return $data;
}, 99);
