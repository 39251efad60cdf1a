<?php
/*
 * Plugin Name: blogctl e2e: custom status
 * Description: Test-only, always on. Registers the editorial status "in-progress" as PublishPress and Edit
 *              Flow do (not public, protected: visible to accounts that may edit posts).
 */
add_action('init', function () {
    register_post_status('in-progress', array(
        'label'                     => 'In Progress',
        'public'                    => false,
        'protected'                 => true,
        'internal'                  => false,
        'exclude_from_search'       => true,
        'show_in_admin_all_list'    => true,
        'show_in_admin_status_list' => true,
        'label_count'               => _n_noop('In Progress <span class="count">(%s)</span>', 'In Progress <span class="count">(%s)</span>'),
    ));
});
