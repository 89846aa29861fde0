/*
 * tracekit listen: receive recordings streamed by `trace-cmd record -N` and
 * `tracekit record -N` (trace-cmd's listen protocol).  Options and usage
 * here; the listener is src/net/listener.c.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "net/listener.h"
#include "util/die.h"
#include "util/stopsig.h"

#define DEFAULT_MAX_META_MB 256

void help_listen(FILE *f)
{
	fputs("usage: tracekit listen -p PORT [-d DIR] [-o NAME] [--address ADDR] [--allow CIDR]...\n"
	      "                       [--clients N] [--max-clients N] [--json]\n"
	      "\n"
	      "Receive recordings that 'trace-cmd record -N HOST:PORT' and 'tracekit record -N'\n"
	      "stream (trace-cmd's listen protocol, V3), over TCP (-t) or UDP: one file per\n"
	      "client, NAME.HOST:PORT.dat, as trace-cmd listen names them.  A client that\n"
	      "leaves mid-stream leaves a file of what arrived, and that is said.\n"
	      "\n"
	      "  -p, --port PORT       the port to listen on\n"
	      "  -d, --dir DIR         where the files go (default: the current directory)\n"
	      "  -o, --output NAME     the files' first part (default: trace)\n"
	      "  -a, --address ADDR    the address to listen on (default: 127.0.0.1)\n"
	      "  -A, --allow CIDR      clients allowed from there (repeatable; default: loopback\n"
	      "                        only, 127.0.0.0/8 and ::1)\n"
	      "  -n, --clients N       stop after N clients ended (default: run until Ctrl-C)\n"
	      "  -m, --max-clients N   at most N clients at once, more are refused (default: 64)\n"
	      "  -M, --max-meta MB     a client's metadata (formats, kallsyms) at most MB (default:\n"
	      "                        256)\n"
	      "  -j, --json            one JSON object a line on stdout for each client\n"
	      "\n"
	      "trace-cmd's protocol has no authentication: anyone who reaches the port can\n"
	      "write files in DIR.  Listen on loopback or a trusted network only.\n"
	      "See docs/net.md.\n", f);
}

static const struct option longopts[] = {
	{ "port", required_argument, NULL, 'p' },
	{ "dir", required_argument, NULL, 'd' },
	{ "output", required_argument, NULL, 'o' },
	{ "address", required_argument, NULL, 'a' },
	{ "allow", required_argument, NULL, 'A' },
	{ "clients", required_argument, NULL, 'n' },
	{ "max-clients", required_argument, NULL, 'm' },
	{ "max-meta", required_argument, NULL, 'M' },
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

int cmd_listen(int argc, char **argv)
{
	struct net_listen_opts o = { .max_clients = 64, .max_meta = DEFAULT_MAX_META_MB << 20 };
	bool allow_given = false;
	char err[256];
	long v;
	int c;

	err_set_verb("listen");
	while ((c = getopt_long(argc, argv, "p:d:o:a:A:n:m:M:jh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (cli_number("-p", optarg, 1, 65535, &v) < 0)
				return 2;
			o.port = (unsigned)v;
			break;
		case 'd':
			o.dir = optarg;
			break;
		case 'o':
			if (!*optarg || strchr(optarg, '/')) {
				errmsg("-o %s: a name, not a path (-d names the directory)", optarg);
				return 2;
			}
			if (strlen(optarg) > 64) {
				errmsg("-o %.20s...: at most 64 bytes", optarg);
				return 2;
			}
			o.name = optarg;
			break;
		case 'a':
			o.addr = optarg;
			break;
		case 'A':
			if (net_allow_add(&o.allow, optarg, err, sizeof(err)) < 0) {
				errmsg("--allow %s", err);
				return 2;
			}
			allow_given = true;
			break;
		case 'n':
			if (cli_number("--clients", optarg, 1, 1000000, &v) < 0)
				return 2;
			o.clients = (int)v;
			break;
		case 'm':
			if (cli_number("--max-clients", optarg, 1, 1024, &v) < 0)
				return 2;
			o.max_clients = (int)v;
			break;
		case 'M':
			if (cli_number("--max-meta", optarg, 1, 65536, &v) < 0)
				return 2;
			o.max_meta = (uint64_t)v << 20;
			break;
		case 'j':
			o.json = true;
			break;
		case 'h':
			help_listen(stdout);
			return 0;
		default:
			errmsg("see 'tracekit listen --help'");
			return 2;
		}
	}
	if (optind < argc) {
		errmsg("unexpected argument '%s' (see 'tracekit listen --help')", argv[optind]);
		return 2;
	}
	if (!o.port) {
		errmsg("-p PORT is needed (the port clients give to record -N HOST:PORT)");
		return 2;
	}
	if (!allow_given)
		net_allow_loopback(&o.allow);
	o.stop = &stop_flag;
	catch_stop_signals(on_stop);
	return net_listen_run(&o);
}
