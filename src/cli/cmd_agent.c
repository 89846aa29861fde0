/*
 * tracekit agent: record this machine (a guest) for a host that runs
 * `trace-cmd record -A` or `tracekit record -A` (trace-cmd's agent protocol
 * over TCP).  Options and the glue here: the protocol is src/net/agent.c,
 * the recording src/record/record.c, fed with the record options the host
 * sent.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "net/agent.h"
#include "record/record.h"
#include "util/die.h"
#include "util/stopsig.h"

void help_agent(FILE *f)
{
	fputs("usage: tracekit agent [-p PORT] [-N HOST] [--address ADDR] [--allow CIDR]...\n"
	      "                      [--sessions N] [--ports-from N] [--json]\n"
	      "\n"
	      "Record this machine for a host that runs 'tracekit record -A' or 'trace-cmd record\n"
	      "-A HOST:PORT' (trace-cmd's agent protocol, over TCP): the host sends the record\n"
	      "options, the agent records with them and sends the file's metadata and each CPU's\n"
	      "pages (each on a port from 1500 up), and answers the host's ptp time sync so that\n"
	      "both files share one clock.  One host at a time.\n"
	      "\n"
	      "  -p, --port PORT     the port to listen on (default 823, trace-cmd's)\n"
	      "  -N, --client HOST   the host allowed to connect (an address); without --allow\n"
	      "                      only it\n"
	      "  -a, --address ADDR  the address to listen on (default: 127.0.0.1; a guest reached\n"
	      "                      over its network needs its own address or 0.0.0.0)\n"
	      "  -A, --allow CIDR    hosts allowed from there (repeatable; default: loopback\n"
	      "                      only, 127.0.0.0/8 and ::1)\n"
	      "  -n, --sessions N    stop after N hosts recorded for (default: run until Ctrl-C)\n"
	      "  -P, --ports-from N  the data and time-sync ports: the first free ones from N up\n"
	      "                      (default 1500, trace-cmd's)\n"
	      "  -j, --json          one JSON object a line on stdout for each step (listening,\n"
	      "                      refused, failed, recording, done); problems on stderr too\n"
	      "\n"
	      "The host's options may be: -e, -f, -b, -C, -T, --user-stack, -P, -p/-l/-n/-g/-O\n"
	      "(function tracers), --probe, --file-version, -q; a COMMAND, -o, -N and -A are\n"
	      "refused.  The protocol has no authentication: anyone allowed to connect can\n"
	      "record this machine.  vsock (@CID) is not supported.  See docs/net.md.\n", f);
}

static const struct option longopts[] = {
	{ "port", required_argument, NULL, 'p' },
	{ "client", required_argument, NULL, 'N' },
	{ "address", required_argument, NULL, 'a' },
	{ "allow", required_argument, NULL, 'A' },
	{ "sessions", required_argument, NULL, 'n' },
	{ "ports-from", required_argument, NULL, 'P' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static volatile int stop_flag;

static void on_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

/* The host's record options as a record verb's command line; NULL after a line saying why. */
static int record_for(struct net_agent_session *s, void *arg)
{
	struct rec_options o = { .user_wait_ms = -1 };
	char **argv = xcalloc((size_t)s->req.argc + 2, sizeof(char *));
	int status = 2;

	(void)arg;
	argv[0] = "record";
	for (int i = 0; i < s->req.argc; i++)
		argv[i + 1] = s->req.argv[i];
	err_set_verb("agent");
	if (cli_record_parse(&o, s->req.argc + 1, argv) < 0)
		goto out;
	if (o.argv || o.output || o.net || o.nguests || o.recover) {
		errmsg("%s asked for a COMMAND, -o, -N, -A or --recover: an agent records the "
		       "system for the host only", s->host);
		goto out;
	}
	o.agent_link = s;
	o.quiet = true;
	status = rec_run(&o);
	/* record took the signals for the run: a Ctrl-C ended it and ends the agent too */
	catch_stop_signals(on_stop);
	if (rec_interrupted())
		stop_flag = 1;
out:
	if (status && !s->close_seen)
		fprintf(stderr, "tracekit: agent: %s: no recording (exit status %d); the host is "
			"told by the connection's end\n", s->host, status);
	cli_record_options_free(&o);
	free(argv);
	return status;
}

int cmd_agent(int argc, char **argv)
{
	struct net_agent_opts o = { .port = NET_AGENT_PORT, .record = record_for };
	bool allow_given = false;
	char err[256];
	long v;
	int c;

	err_set_verb("agent");
	opterr = 0;	/* one line of ours, not getopt's and ours */
	while ((c = getopt_long(argc, argv, ":p:N:a:A:n:P:jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (cli_number("-p", optarg, 1, 65535, &v) < 0)
				return 2;
			o.port = (unsigned)v;
			break;
		case 'N':
		case 'A':
			if (c == 'N' && strchr(optarg, '/')) {
				errmsg("-N %s: one host's address (--allow takes a CIDR)", optarg);
				return 2;
			}
			if (net_allow_add(&o.allow, optarg, err, sizeof(err)) < 0) {
				errmsg("%s %s", c == 'N' ? "-N" : "--allow", err);
				return 2;
			}
			allow_given = true;
			break;
		case 'a':
			o.addr = optarg;
			break;
		case 'n':
			if (cli_number("--sessions", optarg, 1, 1000000, &v) < 0)
				return 2;
			o.sessions = (int)v;
			break;
		case 'P':
			if (cli_number("--ports-from", optarg, 1, 65535, &v) < 0)
				return 2;
			o.first_port = (unsigned)v;
			break;
		case 'j':
			o.json = true;
			break;
		case 'h':
			help_agent(stdout);
			return 0;
		default:
			cli_getopt_error("agent", c, argv);
			return 2;
		}
	}
	if (optind < argc) {
		errmsg("unexpected argument '%s' (see 'tracekit agent --help')", argv[optind]);
		return 2;
	}
	if (!allow_given)
		net_allow_loopback(&o.allow);
	o.stop = &stop_flag;
	catch_stop_signals(on_stop);
	return net_agent_run(&o);
}
