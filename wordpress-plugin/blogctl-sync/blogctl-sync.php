<?php
/**
 * Plugin Name:       blogctl sync
 * Description:       Keeps blogctl's sync state (which file a post was published from, and what blogctl last wrote) in protected post meta that only Editors and Administrators can read or write, and lists a project's posts exactly, in every status, without WordPress search.
 * Version:           1.0.0
 * Requires at least: 6.1
 * Requires PHP:      7.4
 * Author:            blogctl
 * License:           MIT
 * Text Domain:       blogctl-sync
 *
 * One file: install it as a plugin (the zip from `npm run plugin:zip`) or copy it into wp-content/mu-plugins/.
 *
 * What must stay true (docs/wordpress-plugin.md explains it for users):
 *  - The state is readable and writable only by accounts with the post type's edit_others_posts capability.
 *    WordPress checks registered meta only on write (the auth_callback), so answers to anyone else have the
 *    key removed, and a write by anyone else is refused before the post is touched.
 *  - The listing is exact: SQL on the posts and post meta tables, never WordPress search or WP_Query (search
 *    plugins and pre_get_posts filters change both), in every status stored, the trash included.
 *  - A save after blogctl's last write is detectable: every save of a post with a state counts in
 *    _blogctl_saves, and each REST write of the state records the count and modified_gmt it left.
 *  - Everything read is bounded: the state's size, the page size and the page number.
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}
// Installed both as a plugin and as an mu-plugin: the first copy loaded wins. (A constant, not class_exists:
// PHP declares the class below when it compiles this file, before this line runs.)
if ( defined( 'BLOGCTL_SYNC_LOADED' ) ) {
	return;
}
define( 'BLOGCTL_SYNC_LOADED', __FILE__ );

final class Blogctl_Sync {
	const VERSION       = '1.0.0';
	const STATE_VERSION = 1;
	const REST_NS       = 'blogctl/v1';
	/** The state blogctl writes: JSON text. */
	const STATE = '_blogctl_state';
	/** Copied from the state on each write, for the exact listing; never written through REST. */
	const NS_META  = '_blogctl_ns';
	const KEY_META = '_blogctl_key';
	/** Saves of the post since it got a state (any save: editor, revision restore, trash, cron publish). */
	const SAVES = '_blogctl_saves';
	/** What blogctl's last REST write of the state left: {"post":ID,"modified_gmt":"…","saves":N}. */
	const WRITTEN      = '_blogctl_written';
	const MAX_STATE    = 8192;
	const MAX_PER_PAGE = 100;
	const MAX_PAGE     = 1000;
	/** Identifiers in the state (namespace, key): what blogctl's hashes are made of, bounded. */
	const ID_PATTERN = '/^[0-9A-Za-z_-]{1,64}$/';

	/** The SEO plugins' meta keys blogctl writes (Yoast SEO, Rank Math), and how each is stored. */
	const SEO_KEYS = array(
		'_yoast_wpseo_title'               => 'string',
		'_yoast_wpseo_metadesc'            => 'string',
		'_yoast_wpseo_focuskw'             => 'string',
		'_yoast_wpseo_canonical'           => 'string',
		'_yoast_wpseo_meta-robots-noindex' => 'string',
		'rank_math_title'                  => 'string',
		'rank_math_description'            => 'string',
		'rank_math_focus_keyword'          => 'string',
		'rank_math_canonical_url'          => 'string',
		'rank_math_robots'                 => 'array',
	);

	/** Post ids whose state a REST request of this PHP process is writing. */
	private static $writing = array();

	public static function boot() {
		add_action( 'init', array( __CLASS__, 'register_meta' ), 99 );
		add_action( 'rest_api_init', array( __CLASS__, 'register_routes' ) );
		add_action( 'rest_api_init', array( __CLASS__, 'hook_rest_types' ), 99 );
		add_action( 'added_post_meta', array( __CLASS__, 'state_changed' ), 10, 4 );
		add_action( 'updated_post_meta', array( __CLASS__, 'state_changed' ), 10, 4 );
		add_action( 'deleted_post_meta', array( __CLASS__, 'state_deleted' ), 10, 3 );
		add_action( 'save_post', array( __CLASS__, 'count_save' ), 10, 1 );
	}

	/** The post types blogctl can publish to: every type in REST but media, menus and WordPress's own wp_*. */
	public static function post_types() {
		$types = array();
		foreach ( get_post_types( array( 'show_in_rest' => true ), 'names' ) as $type ) {
			if ( 'attachment' === $type || 'nav_menu_item' === $type || 0 === strpos( $type, 'wp_' ) ) {
				continue;
			}
			$types[] = $type;
		}
		return $types;
	}

	/** Whether a user may read and write blogctl's state on posts of a type: edit_others_posts of that type. */
	public static function may_sync( $type, $user_id = null ) {
		$object = get_post_type_object( $type );
		if ( ! $object || empty( $object->cap->edit_others_posts ) ) {
			return false;
		}
		$user_id = null === $user_id ? get_current_user_id() : (int) $user_id;
		return $user_id > 0 && user_can( $user_id, $object->cap->edit_others_posts );
	}

	public static function register_meta() {
		foreach ( self::post_types() as $type ) {
			register_post_meta(
				$type,
				self::STATE,
				array(
					'type'          => 'string',
					'single'        => true,
					'default'       => '',
					'description'   => 'blogctl sync state (JSON): namespace, key, sums, commit and time of the last write.',
					'show_in_rest'  => array(
						'schema' => array(
							'type'      => 'string',
							'maxLength' => self::MAX_STATE,
						),
					),
					// WordPress has already checked edit_post on the post itself (map_meta_cap).
					'auth_callback' => array( __CLASS__, 'auth_state' ),
				)
			);
		}
		self::register_seo_meta();
	}

	/** auth_post_meta_{key}_for_{type}: ($allowed, $meta_key, $post_id, $user_id, $cap, $caps). */
	public static function auth_state( $allowed, $meta_key, $post_id, $user_id ) {
		$post = get_post( $post_id );
		return $post ? self::may_sync( $post->post_type, $user_id ) : false;
	}

	/**
	 * The SEO plugins' meta keys blogctl writes (Yoast SEO, Rank Math), registered for REST where the SEO
	 * plugin itself does not: same storage as theirs, so they read what blogctl wrote. Behind the same
	 * edit_others_posts check as the state. A key the SEO plugin registered for REST is left as it is.
	 */
	private static function register_seo_meta() {
		$keys = self::SEO_KEYS;
		foreach ( self::post_types() as $type ) {
			$registered = get_registered_meta_keys( 'post', $type );
			foreach ( $keys as $key => $kind ) {
				// Registered for REST by the SEO plugin itself: its own rules apply.
				if ( ! empty( $registered[ $key ]['show_in_rest'] ) ) {
					continue;
				}
				$args = array(
					'type'          => $kind,
					'single'        => true,
					'auth_callback' => array( __CLASS__, 'auth_state' ),
					'show_in_rest'  => true,
				);
				if ( 'array' === $kind ) {
					// Rank Math stores its robots directives as one serialized list: ["noindex","nofollow"].
					$args['default']      = array();
					$args['show_in_rest'] = array(
						'schema' => array(
							'type'     => 'array',
							'maxItems' => 20,
							'items'    => array(
								'type'      => 'string',
								'maxLength' => 64,
							),
						),
					);
				} else {
					$args['default']      = '';
					$args['show_in_rest'] = array(
						'schema' => array(
							'type'      => 'string',
							'maxLength' => 2048,
						),
					);
				}
				register_post_meta( $type, $key, $args );
			}
		}
	}

	/** The keys answers to lesser accounts lose: the state, and the SEO keys this plugin registered. */
	private static function guarded_keys( $type ) {
		$keys = array( self::STATE );
		foreach ( get_registered_meta_keys( 'post', $type ) as $key => $args ) {
			if ( isset( $args['auth_callback'] ) && array( __CLASS__, 'auth_state' ) === $args['auth_callback'] ) {
				$keys[] = $key;
			}
		}
		return array_unique( $keys );
	}

	public static function hook_rest_types() {
		foreach ( self::post_types() as $type ) {
			add_filter( "rest_pre_insert_{$type}", array( __CLASS__, 'check_write' ), 10, 2 );
			add_filter( "rest_prepare_{$type}", array( __CLASS__, 'hide_from_readers' ), 10, 3 );
			add_action( "rest_after_insert_{$type}", array( __CLASS__, 'record_write' ), 10, 3 );
		}
	}

	/** The request's value for the state, or null when it sends none. */
	private static function sent_state( $request ) {
		$meta = $request->get_param( 'meta' );
		return is_array( $meta ) && array_key_exists( self::STATE, $meta ) ? $meta[ self::STATE ] : null;
	}

	/**
	 * rest_pre_insert_{type}: a state sent by an account that may not write it, or a state that is not
	 * blogctl's shape, is refused before the post is created or changed (WordPress would write the post
	 * first and refuse the meta after).
	 */
	public static function check_write( $prepared, $request ) {
		$state = self::sent_state( $request );
		if ( null === $state ) {
			return $prepared;
		}
		$type = isset( $prepared->post_type ) ? $prepared->post_type : '';
		if ( '' === $type && ! empty( $prepared->ID ) ) {
			$type = get_post_type( $prepared->ID );
		}
		if ( ! self::may_sync( $type ) ) {
			return new WP_Error(
				'rest_cannot_update',
				'Sorry, you are not allowed to edit the _blogctl_state custom field.',
				array(
					'key'    => self::STATE,
					'status' => rest_authorization_required_code(),
				)
			);
		}
		$problem = self::state_problem( $state );
		if ( null !== $problem ) {
			return new WP_Error(
				'rest_invalid_param',
				'Invalid parameter(s): meta._blogctl_state ' . $problem,
				array(
					'status' => 400,
					'params' => array( 'meta' => '_blogctl_state ' . $problem ),
				)
			);
		}
		return $prepared;
	}

	/** Null for a state blogctl can have written ('' clears it), else what is wrong with it. */
	public static function state_problem( $state ) {
		if ( ! is_string( $state ) ) {
			return 'is not JSON text';
		}
		if ( '' === $state ) {
			return null;
		}
		if ( strlen( $state ) > self::MAX_STATE ) {
			return 'is longer than ' . self::MAX_STATE . ' bytes';
		}
		$data = json_decode( $state, true, 8 );
		if ( ! is_array( $data ) || ( array() !== $data && array_keys( $data ) === range( 0, count( $data ) - 1 ) ) ) {
			return 'is not a JSON object';
		}
		if ( ! isset( $data['v'] ) || ! is_int( $data['v'] ) || $data['v'] < 1 ) {
			return 'has no version "v"';
		}
		foreach ( array( 'ns', 'key' ) as $id ) {
			if ( ! isset( $data[ $id ] ) || ! is_string( $data[ $id ] ) || ! preg_match( self::ID_PATTERN, $data[ $id ] ) ) {
				return "has no valid \"$id\"";
			}
		}
		if ( isset( $data['sums'] ) && ! is_array( $data['sums'] ) ) {
			return '"sums" is not an object';
		}
		return null;
	}

	/** The parsed state of a post, or null. */
	public static function state_of( $post_id ) {
		$text = get_post_meta( $post_id, self::STATE, true );
		if ( ! is_string( $text ) || '' === $text || null !== self::state_problem( $text ) ) {
			return null;
		}
		return json_decode( $text, true, 8 );
	}

	/** rest_prepare_{type}: the guarded keys leave every answer to an account that may not read them. */
	public static function hide_from_readers( $response, $post, $request ) {
		if ( self::may_sync( $post->post_type ) ) {
			return $response;
		}
		$data = $response->get_data();
		if ( isset( $data['meta'] ) && is_array( $data['meta'] ) ) {
			foreach ( self::guarded_keys( $post->post_type ) as $key ) {
				unset( $data['meta'][ $key ] );
			}
			$response->set_data( $data );
		}
		return $response;
	}

	/** added/updated_post_meta: the copies the listing queries follow the state. */
	public static function state_changed( $meta_id, $post_id, $meta_key, $value ) {
		if ( self::STATE !== $meta_key ) {
			return;
		}
		$state = is_string( $value ) && null === self::state_problem( $value ) && '' !== $value
			? json_decode( $value, true, 8 )
			: null;
		if ( null === $state ) {
			delete_post_meta( $post_id, self::NS_META );
			delete_post_meta( $post_id, self::KEY_META );
			return;
		}
		update_post_meta( $post_id, self::NS_META, $state['ns'] );
		update_post_meta( $post_id, self::KEY_META, $state['key'] );
		if ( ! metadata_exists( 'post', $post_id, self::SAVES ) ) {
			add_post_meta( $post_id, self::SAVES, 0, true );
		}
	}

	public static function state_deleted( $meta_ids, $post_id, $meta_key ) {
		if ( self::STATE === $meta_key ) {
			delete_post_meta( $post_id, self::NS_META );
			delete_post_meta( $post_id, self::KEY_META );
		}
	}

	/** save_post: every save of a post that has a state counts (revisions and autosaves are other posts). */
	public static function count_save( $post_id ) {
		if ( wp_is_post_revision( $post_id ) || ! metadata_exists( 'post', $post_id, self::SAVES ) ) {
			return;
		}
		update_post_meta( $post_id, self::SAVES, (int) get_post_meta( $post_id, self::SAVES, true ) + 1 );
	}

	/**
	 * rest_after_insert_{type}: a request that sent the state (check_write let it through: the account may
	 * sync) is blogctl's write; what it left is recorded, after WordPress saved the post, its terms and meta.
	 */
	public static function record_write( $post, $request, $creating ) {
		if ( null === self::sent_state( $request ) ) {
			return;
		}
		$post = get_post( $post->ID );
		if ( ! $post ) {
			return;
		}
		$written = array(
			'post'         => (int) $post->ID,
			'modified_gmt' => self::date( $post->post_modified_gmt ),
			'saves'        => (int) get_post_meta( $post->ID, self::SAVES, true ),
		);
		update_post_meta( $post->ID, self::WRITTEN, wp_slash( wp_json_encode( $written ) ) );
	}

	private static function date( $gmt ) {
		return ( ! $gmt || '0000-00-00 00:00:00' === $gmt ) ? null : mysql_to_rfc3339( $gmt );
	}

	public static function register_routes() {
		register_rest_route(
			self::REST_NS,
			'/info',
			array(
				'methods'             => 'GET',
				'callback'            => array( __CLASS__, 'info' ),
				'permission_callback' => function () {
					return current_user_can( 'edit_posts' );
				},
			)
		);
		register_rest_route(
			self::REST_NS,
			'/posts',
			array(
				'methods'             => 'GET',
				'callback'            => array( __CLASS__, 'list_posts' ),
				'permission_callback' => function () {
					return self::may_sync( 'post' );
				},
				'args'                => array(
					'ns'       => array(
						'type'     => 'string',
						'required' => true,
						'pattern'  => '^[0-9A-Za-z_-]{1,64}$',
					),
					'page'     => array(
						'type'    => 'integer',
						'default' => 1,
						'minimum' => 1,
						'maximum' => self::MAX_PAGE,
					),
					'per_page' => array(
						'type'    => 'integer',
						'default' => self::MAX_PER_PAGE,
						'minimum' => 1,
						'maximum' => self::MAX_PER_PAGE,
					),
					'fields'   => array(
						'type'    => 'string',
						'enum'    => array( 'all', 'ids' ),
						'default' => 'all',
					),
				),
			)
		);
	}

	public static function info() {
		return rest_ensure_response(
			array(
				'plugin'        => 'blogctl-sync',
				'version'       => self::VERSION,
				'state_version' => self::STATE_VERSION,
				'meta_key'      => self::STATE,
				'post_types'    => self::post_types(),
				'statuses'      => array_values( array_keys( get_post_stati() ) ),
				'can_sync'      => self::may_sync( 'post' ),
				'max_per_page'  => self::MAX_PER_PAGE,
			)
		);
	}

	/**
	 * Posts of one namespace: whose state names it, or whose content carries a marker naming it (written
	 * before the plugin came), of every post type blogctl publishes to, in every stored status.
	 */
	public static function list_posts( $request ) {
		global $wpdb;
		$ns       = (string) $request['ns'];
		$page     = (int) $request['page'];
		$per_page = (int) $request['per_page'];
		$types    = self::post_types();
		if ( ! $types ) {
			return rest_ensure_response( array() );
		}
		$in    = implode( ', ', array_fill( 0, count( $types ), '%s' ) );
		$where = "p.post_type IN ($in) AND (p.ID IN (SELECT m.post_id FROM {$wpdb->postmeta} m WHERE m.meta_key = %s AND m.meta_value = %s) OR p.post_content LIKE %s)";
		$args  = array_merge( $types, array( self::NS_META, $ns, '%' . $wpdb->esc_like( 'ns=' . $ns ) . '%' ) );
		// phpcs:disable WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- $where holds only placeholders.
		$total = (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->posts} p WHERE $where", $args ) );
		$ids   = $wpdb->get_col(
			$wpdb->prepare(
				"SELECT p.ID FROM {$wpdb->posts} p WHERE $where ORDER BY p.ID ASC LIMIT %d OFFSET %d",
				array_merge( $args, array( $per_page, ( $page - 1 ) * $per_page ) )
			)
		);
		// phpcs:enable
		$full  = 'ids' !== $request['fields'];
		$items = array();
		foreach ( $ids as $id ) {
			$post = get_post( (int) $id );
			if ( $post && self::may_sync( $post->post_type ) ) {
				$items[] = self::item( $post, $full );
			}
		}
		$response = rest_ensure_response( $items );
		$response->header( 'X-WP-Total', (string) $total );
		$response->header( 'X-WP-TotalPages', (string) (int) ceil( $total / $per_page ) );
		return $response;
	}

	/**
	 * The meta a listed post shows: the state, and the SEO keys registered for REST (by this plugin or the SEO
	 * plugin), so a look-up sees an editor's change of them as it sees one of the title.
	 */
	private static function listed_meta( $post ) {
		$meta       = array( self::STATE => (string) get_post_meta( $post->ID, self::STATE, true ) );
		$registered = get_registered_meta_keys( 'post', $post->post_type );
		foreach ( self::SEO_KEYS as $key => $kind ) {
			if ( empty( $registered[ $key ]['show_in_rest'] ) ) {
				continue;
			}
			$value        = get_post_meta( $post->ID, $key, true );
			$meta[ $key ] = 'array' === $kind ? ( is_array( $value ) ? array_values( $value ) : array() ) : (string) $value;
		}
		return $meta;
	}

	/** One post, shaped like wp/v2's context=edit answer (the fields blogctl reads) plus the plugin's record. */
	private static function item( $post, $full ) {
		$written = json_decode( (string) get_post_meta( $post->ID, self::WRITTEN, true ), true, 4 );
		$saves   = metadata_exists( 'post', $post->ID, self::SAVES ) ? (int) get_post_meta( $post->ID, self::SAVES, true ) : null;
		$item    = array(
			'id'           => (int) $post->ID,
			'type'         => $post->post_type,
			'status'       => $post->post_status,
			'slug'         => $post->post_name,
			'link'         => get_permalink( $post ),
			'date_gmt'     => self::date( $post->post_date_gmt ),
			'modified_gmt' => self::date( $post->post_modified_gmt ),
			'author'       => (int) $post->post_author,
			'meta'         => self::listed_meta( $post ),
			'blogctl'      => array(
				'saves'           => $saves,
				'written'         => is_array( $written ) ? $written : null,
				// Whether the post's author may write blogctl's state: a marker in the content of a post
				// whose author may not (an Author's copy) names no project.
				'author_can_sync' => self::may_sync( $post->post_type, (int) $post->post_author ),
			),
		);
		if ( $full ) {
			$item['password']       = $post->post_password;
			$item['title']          = array( 'raw' => $post->post_title );
			$item['content']        = array( 'raw' => $post->post_content );
			$item['excerpt']        = array( 'raw' => $post->post_excerpt );
			$item['featured_media'] = (int) get_post_thumbnail_id( $post );
			foreach ( array( 'categories' => 'category', 'tags' => 'post_tag' ) as $field => $taxonomy ) {
				if ( is_object_in_taxonomy( $post->post_type, $taxonomy ) ) {
					$terms          = wp_get_object_terms( $post->ID, $taxonomy, array( 'fields' => 'ids' ) );
					$item[ $field ] = is_array( $terms ) ? array_map( 'intval', $terms ) : array();
				}
			}
		}
		return $item;
	}
}

Blogctl_Sync::boot();
