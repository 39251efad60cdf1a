<?php
/*
 * Plugin Name: blogctl e2e switches
 * Description: Test-only. Turns the other e2e mu-plugins' behaviours on and off at run time, so one instance
 *              serves the tests that need a hostile plugin and those that need a plain site. Every switch is
 *              off on a fresh instance; a test that turns one on turns it off again when it ends.
 *              GET/POST blogctl-e2e/v1/switches {"strip-comments": true, ...} (administrators only).
 */
const BLOGCTL_E2E_SWITCHES = array('strip-comments', 'search-replaced', 'rewrite-on-save', 'seo-yoast');

function blogctl_e2e_on($name) {
    $on = get_option('blogctl_e2e_switches', array());
    return is_array($on) && !empty($on[$name]);
}

add_action('rest_api_init', function () {
    register_rest_route('blogctl-e2e/v1', '/switches', array(
        array(
            'methods'             => 'GET',
            'callback'            => function () {
                $on = get_option('blogctl_e2e_switches', array());
                $all = array();
                foreach (BLOGCTL_E2E_SWITCHES as $name) $all[$name] = is_array($on) && !empty($on[$name]);
                return $all;
            },
            'permission_callback' => function () { return current_user_can('manage_options'); },
        ),
        array(
            'methods'             => 'POST',
            'callback'            => function (WP_REST_Request $request) {
                $on = get_option('blogctl_e2e_switches', array());
                if (!is_array($on)) $on = array();
                foreach ((array) $request->get_json_params() as $name => $value) {
                    if (!in_array($name, BLOGCTL_E2E_SWITCHES, true)) {
                        return new WP_Error('e2e_unknown_switch', "unknown switch $name", array('status' => 400));
                    }
                    $on[$name] = (bool) $value;
                }
                update_option('blogctl_e2e_switches', $on, true);
                return $on;
            },
            'permission_callback' => function () { return current_user_can('manage_options'); },
        ),
    ));
});
