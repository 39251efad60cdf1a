<?php
/**
 * Plugin Name: blogctl e2e: a custom post type
 * Description: Registers the post type `recipe` (REST base `recipes`, not hierarchical) with a taxonomy
 *   `cuisine` (REST base `cuisines`), and the hierarchical type `guide` (REST base `guides`) with no
 *   taxonomy: what blogctl's pages and custom post types are tested against.
 */
add_action('init', function () {
    register_taxonomy('cuisine', ['recipe'], [
        'label' => 'Cuisines',
        'public' => true,
        'hierarchical' => false,
        'show_in_rest' => true,
        'rest_base' => 'cuisines',
    ]);
    register_post_type('recipe', [
        'label' => 'Recipes',
        'public' => true,
        'show_in_rest' => true,
        'rest_base' => 'recipes',
        'supports' => ['title', 'editor', 'excerpt', 'thumbnail', 'custom-fields', 'author'],
        'taxonomies' => ['cuisine'],
    ]);
    register_post_type('guide', [
        'label' => 'Guides',
        'public' => true,
        'hierarchical' => true,
        'show_in_rest' => true,
        'rest_base' => 'guides',
        'supports' => ['title', 'editor', 'excerpt', 'page-attributes', 'custom-fields'],
    ]);
});
