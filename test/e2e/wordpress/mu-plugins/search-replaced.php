<?php
/*
 * Plugin Name: blogctl e2e: search replaced
 * Description: Test-only (switch "search-replaced"). Like Relevanssi, SearchWP or ElasticPress, which answer
 *              WordPress searches from an index of the visible words: a search finds nothing that is only
 *              inside an HTML comment. Here every search (the REST API's `search` too) finds nothing.
 */
add_filter('posts_pre_query', function ($posts, $query) {
    if (!function_exists('blogctl_e2e_on') || !blogctl_e2e_on('search-replaced')) return $posts;
    $s = $query->get('s');
    if ($s === '' || $s === null) return $posts;
    $query->found_posts = 0;
    $query->max_num_pages = 0;
    return array();
}, 10, 2);
