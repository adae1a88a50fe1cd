/*
 * libmicrohttpd started as Decoy's server starts it, with no Swift behind it: the server
 * benchmark's measure of what the library costs with Decoy's options (suspend and resume, turbo,
 * the connection timeout, strict parsing and the three notification callbacks) before any of
 * Decoy's own code runs. It starts the daemon through Decoy's own shim, with Daemon.swift's flags
 * and MockServer.Configuration's defaults, so that a change of options there shows here.
 *
 *   GET /stub  -> 200 with the 99-byte JSON body of shared/bench's mhd_stub.c, from a response made
 *                 once (as Decoy prepares a stub's response once);
 *   GET /delay -> the same, 1 s later: the connection is suspended and one timer thread resumes
 *                 it, as Decoy holds a delayed answer, so that the delay benchmark has the floor
 *                 of the library and its client;
 *   anything else -> 404.
 *
 * Usage: mhd_decoy_options <port>. Binds 127.0.0.1 only; runs until SIGINT or SIGTERM.
 * Build: gcc -O2 -I ../../../Sources/CMicroHTTPD -o mhd_decoy_options mhd_decoy_options.c -lmicrohttpd
 */
#include "shim.h"

#include <arpa/inet.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

static const char BODY[] =
    "{\"id\":42,\"name\":\"benchmark-stub\",\"status\":\"ok\",\"tags\":[\"alpha\",\"beta\"],"
    "\"message\":\"hello from stub\"}";

static struct MHD_Response *found;
static struct MHD_Response *missing;

/* A request's state, as Decoy keeps an exchange: set when the target arrives, moved on when the
 * head has been seen and when a delay is over, cleared when the request completes. */
static int started, head_seen, delay_over;

/* The suspended connections, in the order their delays end: every delay is the same, so the
 * order they arrived in. A ring as large as the connection limit. */
enum { DELAY_CAPACITY = 16384 + 2048 };
static struct Delayed {
  struct MHD_Connection *connection;
  struct timespec due;
} delayed[DELAY_CAPACITY];
static size_t delayed_first, delayed_count;
static pthread_mutex_t delayed_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t delayed_added; /* on the monotonic clock, from start_timer() */

static void hold_for_a_second(struct MHD_Connection *connection) {
  struct timespec due;
  clock_gettime(CLOCK_MONOTONIC, &due);
  due.tv_sec += 1;
  MHD_suspend_connection(connection);
  pthread_mutex_lock(&delayed_lock);
  delayed[(delayed_first + delayed_count++) % DELAY_CAPACITY] = (struct Delayed){connection, due};
  pthread_cond_signal(&delayed_added);
  pthread_mutex_unlock(&delayed_lock);
}

/* Resumes each held connection when its second is over. */
static void *resume_when_due(void *unused) {
  (void)unused;
  pthread_mutex_lock(&delayed_lock);
  for (;;) {
    if (delayed_count == 0) {
      pthread_cond_wait(&delayed_added, &delayed_lock);
      continue;
    }
    struct Delayed first = delayed[delayed_first];
    if (pthread_cond_timedwait(&delayed_added, &delayed_lock, &first.due) == 0) continue;
    delayed_first = (delayed_first + 1) % DELAY_CAPACITY;
    delayed_count -= 1;
    MHD_resume_connection(first.connection);
  }
  return NULL;
}

static void start_timer(void) {
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&delayed_added, &attributes);
  pthread_t timer;
  pthread_create(&timer, NULL, resume_when_due, NULL);
}

static void *request_started(void *context, const char *uri, struct MHD_Connection *connection) {
  (void)context; (void)uri; (void)connection;
  return &started;
}

static void request_completed(void *context, struct MHD_Connection *connection, void **state,
                              enum MHD_RequestTerminationCode code) {
  (void)context; (void)connection; (void)code;
  *state = NULL;
}

static void connection_changed(void *context, struct MHD_Connection *connection, void **socket_context,
                               enum MHD_ConnectionNotificationCode change) {
  (void)context; (void)connection; (void)socket_context; (void)change;
}

static enum MHD_Result handle(void *context, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload,
                              size_t *upload_size, void **state) {
  (void)context; (void)version; (void)upload;
  /* Answered on a later call than the head's, as Decoy does, which keeps the connection alive. */
  if (*state == &started) { *state = &head_seen; return MHD_YES; }
  if (*upload_size != 0) { *upload_size = 0; return MHD_YES; }
  int get = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
  if (get && strcmp(url, "/delay") == 0 && *state != &delay_over) {
    *state = &delay_over;
    hold_for_a_second(connection);
    return MHD_YES;
  }
  int stub = get && (strcmp(url, "/stub") == 0 || strcmp(url, "/delay") == 0);
  return MHD_queue_response(connection, stub ? MHD_HTTP_OK : MHD_HTTP_NOT_FOUND, stub ? found : missing);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <port>\n", argv[0]);
    return 2;
  }
  found = MHD_create_response_from_buffer(sizeof(BODY) - 1, (void *)BODY, MHD_RESPMEM_PERSISTENT);
  missing = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
  MHD_add_response_header(found, "Content-Type", "application/json");

  struct sockaddr_in address;
  memset(&address, 0, sizeof address);
  address.sin_family = AF_INET;
  address.sin_port = htons((uint16_t)atoi(argv[1]));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

  /* The daemon's threads inherit the blocked signals; the main thread waits for them. */
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, NULL);

  start_timer();
  /* Daemon.swift's flags; MockServer.Configuration's defaults: 2 threads, 16,384 connections and
   * the 2,048 over the limit it answers 503, a backlog of 4,096, 30 s, 32 KiB per connection. */
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_TURBO;
  struct MHD_Daemon *daemon = decoy_start_daemon(
      flags, (const struct sockaddr *)&address, 2, 16384 + 2048, 4096, 30, 32 * 1024, handle,
      request_completed, request_started, connection_changed, NULL, NULL, NULL, NULL);
  if (daemon == NULL) {
    fprintf(stderr, "MHD_start_daemon failed\n");
    return 1;
  }
  int signal_number;
  sigwait(&signals, &signal_number);
  MHD_stop_daemon(daemon);
  MHD_destroy_response(found);
  MHD_destroy_response(missing);
  return 0;
}
