<?php
/*
 * Plugin Name: blogctl e2e: rewrite content on save
 * Description: Test-only (switch "rewrite-on-save"). Like house-style and auto-link plugins that change the
 *              stored content: "colour" becomes "color" in a post's content when it is saved.
 */
add_filter('wp_insert_post_data', function ($data) {
    if (!function_exists('blogctl_e2e_on') || !blogctl_e2e_on('rewrite-on-save')) return $data;
    $data['post_content'] = str_replace('colour', 'color', $data['post_content']);
    return $data;
}, 99);
