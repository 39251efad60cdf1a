<?php
/*
 * Plugin Name: blogctl e2e: Yoast SEO's REST namespace
 * Description: Test-only (switch "seo-yoast"). Yoast SEO itself is not installed on the test sites; this
 *              adds a route in its namespace, so the REST index lists `yoast/v1` and blogctl takes the site
 *              for one running Yoast. The meta keys Yoast reads are registered for REST by blogctl's companion
 *              plugin, on the instances that have it.
 */
add_action('rest_api_init', function () {
    if (!function_exists('blogctl_e2e_on') || !blogctl_e2e_on('seo-yoast')) return;
    register_rest_route('yoast/v1', '/blogctl-e2e', array(
        'methods'             => 'GET',
        'callback'            => function () { return array('yoast' => 'e2e'); },
        'permission_callback' => '__return_true',
    ));
});
