/* kafka-mock: a Kafka-protocol broker for one machine and CI, using librdkafka's mock cluster
 * (Debian librdkafka-dev). Production runs real Kafka; this only speaks the same wire protocol.
 * Usage: kafka-mock [--brokers N] [--topic name:partitions]...
 * Prints the bootstrap servers on one stdout line, then serves until SIGTERM or SIGINT. */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(const char *msg) {
  fprintf(stderr, "kafka-mock: %s\nusage: kafka-mock [--brokers N] [--topic name:partitions]...\n", msg);
  return 2;
}

/* Fault injection for tests: each stdin line `error <ApiKey> <ErrorCode> <count>` makes the next
 * <count> requests of that API (e.g. 1 = Fetch) answer with that Kafka error code (e.g. 29 =
 * TOPIC_AUTHORIZATION_FAILED), as a broker whose ACLs changed would. Ends quietly at EOF (stdin
 * closed or /dev/null), so a broker started without a pipe behaves as before. */
static void *read_commands(void *arg) {
  rd_kafka_mock_cluster_t *mc = arg;
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    int api = -1, code = 0, count = 0;
    if (sscanf(line, "error %d %d %d", &api, &code, &count) != 3 || api < 0 || count < 1 || count > 10000) {
      fprintf(stderr, "kafka-mock: ignored command (expected: error <ApiKey> <ErrorCode> <count>): %s", line);
      continue;
    }
    rd_kafka_resp_err_t errs[10000];
    for (int i = 0; i < count; i++) errs[i] = (rd_kafka_resp_err_t)code;
    rd_kafka_mock_push_request_errors_array(mc, (int16_t)api, (size_t)count, errs);
    fprintf(stderr, "kafka-mock: next %d request(s) of API %d answer error %d\n", count, api, code);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int brokers = 3;
  /* Check every argument before anything starts, so bad input fails fast with one clear line. */
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--brokers") && i + 1 < argc) {
      if ((brokers = atoi(argv[++i])) < 1) return usage("--brokers needs a positive number");
    } else if (!strcmp(argv[i], "--topic") && i + 1 < argc) {
      const char *spec = argv[++i], *colon = strrchr(spec, ':');
      if (!colon || colon == spec || atoi(colon + 1) < 1)
        return usage("--topic needs name:partitions with partitions >= 1");
    } else {
      return usage("unknown or incomplete argument");
    }
  }

  /* Block the stop signals before librdkafka starts its threads (they inherit the mask), so
   * sigwait below receives them and the cluster is torn down cleanly. */
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, NULL);

  char errstr[512];
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof errstr); /* host client has no servers: quiet */
  /* The mock cluster lives inside a client handle; this producer is only its host. */
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
  if (!rk) { fprintf(stderr, "kafka-mock: creating the host client: %s\n", errstr); return 1; }
  rd_kafka_mock_cluster_t *mc = rd_kafka_mock_cluster_new(rk, brokers);
  if (!mc) { fprintf(stderr, "kafka-mock: creating the mock cluster failed\n"); return 1; }

  for (int i = 1; i < argc; i += 2) {
    if (strcmp(argv[i], "--topic")) continue;
    const char *spec = argv[i + 1], *colon = strrchr(spec, ':');
    char name[512];
    snprintf(name, sizeof name, "%.*s", (int)(colon - spec), spec);
    /* Replication is capped by the broker count (the mock keeps one copy whatever it is told). */
    rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mc, name, atoi(colon + 1), brokers < 3 ? brokers : 3);
    if (err) { fprintf(stderr, "kafka-mock: topic %s: %s\n", name, rd_kafka_err2str(err)); return 1; }
  }

  printf("%s\n", rd_kafka_mock_cluster_bootstraps(mc));
  fflush(stdout);
  pthread_t commands;
  if (pthread_create(&commands, NULL, read_commands, mc) == 0) pthread_detach(commands);
  int sig = 0;
  sigwait(&set, &sig);
  rd_kafka_mock_cluster_destroy(mc);
  rd_kafka_destroy(rk);
  return 0;
}
