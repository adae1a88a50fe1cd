#ifndef DECOY_CMICROHTTPD_SHIM_H
#define DECOY_CMICROHTTPD_SHIM_H

#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <stdint.h>
#include <microhttpd.h>

/* MHD_start_daemon, MHD_get_daemon_info, MHD_get_connection_info and MHD_set_connection_option
   are C-variadic, which Swift cannot call; these wrappers give them fixed signatures. */

typedef void *(*decoy_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

static inline struct MHD_Daemon *decoy_start_daemon(
    unsigned int flags, const struct sockaddr *address, unsigned int thread_pool_size,
    unsigned int connection_limit, unsigned int listen_backlog, unsigned int connection_timeout_seconds,
    size_t connection_memory_limit, MHD_AccessHandlerCallback handler,
    MHD_RequestCompletedCallback completed, decoy_uri_log_callback uri_log,
    MHD_NotifyConnectionCallback notify_connection, const char *tls_key_pem, const char *tls_certificate_pem,
    const char *tls_priorities, void *context)
{
    /* HTTPS when given a key and certificate (MHD_USE_TLS in flags); an empty array otherwise.
       GnuTLS's priorities (its defaults when NULL) choose the protocol versions and ciphers. */
    struct MHD_OptionItem tls[] = {
        {tls_key_pem == NULL ? MHD_OPTION_END : MHD_OPTION_HTTPS_MEM_KEY, 0, (void *) tls_key_pem},
        {MHD_OPTION_HTTPS_MEM_CERT, 0, (void *) tls_certificate_pem},
        {tls_priorities == NULL ? MHD_OPTION_END : MHD_OPTION_HTTPS_PRIORITIES, 0, (void *) tls_priorities},
        {MHD_OPTION_END, 0, NULL},
    };
    return MHD_start_daemon(
        flags, 0, NULL, NULL, handler, context,
        MHD_OPTION_ARRAY, tls,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, listen_backlog,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
        /* Refuses an HTTP/1.1 request without Host; Decoy checks the rest of RFC 9112 itself. */
        MHD_OPTION_STRICT_FOR_CLIENT, (int) 1,
        MHD_OPTION_NOTIFY_COMPLETED, completed, context,
        MHD_OPTION_URI_LOG_CALLBACK, uri_log, context,
        MHD_OPTION_NOTIFY_CONNECTION, notify_connection, context,
        MHD_OPTION_END);
}

/* Whether this libmicrohttpd was built with TLS. */
static inline int decoy_supports_tls(void)
{
    return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

static inline uint16_t decoy_daemon_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

static inline int decoy_connection_socket(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/* The pointer the connection-notification callback stored for the connection. */
static inline void *decoy_connection_context(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* The bytes of the request head, from the first of its method to past the line that ended it;
   0 before the head is in. */
static inline size_t decoy_connection_head_size(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

static inline void decoy_connection_set_timeout(struct MHD_Connection *connection, unsigned int seconds)
{
    MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/* Gives an upgraded connection's socket back to libmicrohttpd to close (MHD_upgrade_action is C-variadic). */
static inline int decoy_upgrade_close(struct MHD_UpgradeResponseHandle *handle)
{
    return MHD_upgrade_action(handle, MHD_UPGRADE_ACTION_CLOSE) == MHD_YES;
}

#endif
