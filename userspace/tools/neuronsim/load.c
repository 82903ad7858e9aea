// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - "load": load a KBIN plan, and with --hold keep it loaded and
 * run the commands of stdin against it (resolve, read, vars, info, dma,
 * run, wait, write, read --out, echo, help), since bytes move only through the fd that loaded a model
 * (Documentation/userspace.rst, "Commands on the stdin of load --hold").
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "main.h"

/* one line (or JSON object) about a model of this process: MODEL_INFO */
int print_model(const struct vartab *t, const char *plan, const char *tail,
		bool hold)
{
	struct neuronsim_model_info mi;
	int err;

	err = neuronsim_model_info(t->fd, t->model_id, &mi);
	if (err) {
		errmsg_errno(err, "model %u: MODEL_INFO: %s", t->model_id,
			     strerror(-err));
		return -1;
	}
	if (tool_json) {
		json_t *o = json_pack("{s:I,s:i,s:I,s:I,s:I,s:I,s:I,s:I}",
				      "model_id", (json_int_t)t->model_id,
				      "owner_pid", (int)getpid(),
				      "target_gen", (json_int_t)mi.target_gen,
				      "num_subgraphs", (json_int_t)mi.num_subgraphs,
				      "first_core", (json_int_t)mi.first_core,
				      "num_vars", (json_int_t)mi.num_vars,
				      "hbm_bytes", (json_int_t)mi.hbm_bytes,
				      "scratchpad_bytes", (json_int_t)mi.scratchpad_bytes);

		if (plan)
			json_object_set_new(o, "hold", json_boolean(hold));
		tool_json_print(o);
		return 0;
	}
	if (plan)
		printf("%u\tmodel %u loaded from %s: ", t->model_id,
		       t->model_id, plan);
	else
		printf("model %u: ", t->model_id);
	printf("%u subgraphs from NeuronCore %u, %llu vars, %llu bytes HBM, %llu bytes scratchpad%s\n",
	       mi.num_subgraphs, mi.first_core,
	       (unsigned long long)mi.num_vars,
	       (unsigned long long)mi.hbm_bytes,
	       (unsigned long long)mi.scratchpad_bytes, tail);
	fflush(stdout);
	return 0;
}

/* ---- load --hold: commands on stdin against the held model ---- */

#define HOLD_LINE_MAX	4096
#define HOLD_ARGS_MAX	64

static void hold_help(void)
{
	printf("commands (one per line; '-j' anywhere on a line prints JSON):\n"
	       "  resolve VAR[+OFFSET[:SIZE]]...  device addresses (RESOLVE)\n"
	       "  read VAR[+OFFSET[:LEN]]         hexdump of the bytes (READ_VAR);\n"
	       "  read VAR +OFFSET[:LEN]            the offset may stand apart\n"
	       "  vars                            every variable and its address\n"
	       "  info                            the model's counts (MODEL_INFO)\n"
	       "  dma [--ring sgN/QUEUE [--from I] [--count N]]  DMA queues, UDMA rings\n"
	       "  run [sgN/]QUEUE...              start DMA queues on the engine (RUN)\n"
	       "  wait [[sgN/]QUEUE...]           wait for them, print each (WAIT)\n"
	       "  write VAR[+OFFSET] FILE         WRITE_VAR of FILE's bytes (.npy: payload)\n"
	       "  read VAR [+OFFSET[:LEN]] --out FILE  READ_VAR into FILE\n"
	       "  exec [--timeout MS] [--trace FILE]  execute the model's program (EXECUTE)\n"
	       "  echo TEXT                       print TEXT (a marker for scripts)\n"
	       "  help                            this text\n");
	fflush(stdout);
}

/* run one command line; 0 or 1 when it failed */
static int hold_run_line(const struct vartab *t, char *line)
{
	char *argv[HOLD_ARGS_MAX], *tok, *save = NULL, ref[HOLD_LINE_MAX];
	const char *saved_cmd = cmd_name;
	bool saved_json = tool_json;
	int argc = 0, rc = 0, run_rc, i;

	for (tok = strtok_r(line, " \t\r", &save); tok;
	     tok = strtok_r(NULL, " \t\r", &save)) {
		if (!strcmp(tok, "-j") || !strcmp(tok, "--json")) {
			tool_json = true;
			continue;
		}
		if (argc == HOLD_ARGS_MAX) {
			errmsg_errno(E2BIG, "more than %d words on a line", HOLD_ARGS_MAX);
			tool_json = saved_json;
			return 1;
		}
		argv[argc++] = tok;
	}
	if (!argc || argv[0][0] == '#') {
		tool_json = saved_json;
		return 0;
	}
	cmd_name = argv[0];
	run_rc = do_run_hold(t, argc, argv);
	if (run_rc >= 0) {
		rc = run_rc;	/* run, wait, write, read --out */
	} else if (!strcmp(argv[0], "resolve") && argc > 1) {
		rc = do_resolve(t, argc - 1, argv + 1) ? 1 : 0;
	} else if (!strcmp(argv[0], "read") && (argc == 2 ||
		   (argc == 3 && argv[2][0] == '+'))) {
		snprintf(ref, sizeof(ref), "%s%s", argv[1], argc == 3 ? argv[2] : "");
		rc = do_read(t, ref) ? 1 : 0;
	} else if (!strcmp(argv[0], "vars") && argc == 1) {
		do_vars(t);
	} else if (!strcmp(argv[0], "info") && argc == 1) {
		rc = print_model(t, NULL, "", false) ? 1 : 0;
	} else if (!strcmp(argv[0], "dma")) {
		rc = do_dma(t, argc - 1, argv + 1) ? 1 : 0;
	} else if (!strcmp(argv[0], "exec")) {
		rc = do_exec_hold(t, argc, argv) ? 1 : 0;
	} else if (!strcmp(argv[0], "echo")) {
		for (i = 1; i < argc; i++)
			printf("%s%s", argv[i], i + 1 < argc ? " " : "");
		putchar('\n');
		fflush(stdout);
	} else if (!strcmp(argv[0], "help") && argc == 1) {
		hold_help();
	} else {
		cmd_name = "load";
		errmsg_errno(EINVAL, "unknown or malformed command '%s' (try 'help')",
			     argv[0]);
		rc = 1;
	}
	cmd_name = saved_cmd;
	tool_json = saved_json;
	return rc;
}

/*
 * Keep the model of @t loaded until SIGINT or SIGTERM.  With @commands,
 * run the lines of stdin against it meanwhile; at end of input go on
 * holding, or return when @exit_on_eof.  Returns the number of commands
 * that failed.  The signals stay blocked outside ppoll()/sigsuspend(), so
 * one that comes between a check and a wait is not lost.
 */
static int hold_model(const struct vartab *t, bool commands, bool exit_on_eof)
{
	static char buf[HOLD_LINE_MAX + 1];
	size_t len = 0;
	sigset_t block, old;
	bool eof = !commands, skipping = false;
	int failed = 0;

	install_stop_handlers();
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!stop_signal) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		char *nl;
		ssize_t n;

		if (eof) {
			if (exit_on_eof)
				break;
			sigsuspend(&old);
			continue;
		}
		if (ppoll(&pfd, 1, NULL, &old) < 0) {
			if (errno != EINTR) {
				errmsg_errno(errno, "stdin: %s", strerror(errno));
				eof = true;
			}
			continue;
		}
		n = read(STDIN_FILENO, buf + len, HOLD_LINE_MAX - len);
		if (n < 0) {
			if (errno != EINTR && errno != EAGAIN) {
				errmsg_errno(errno, "stdin: %s", strerror(errno));
				eof = true;
			}
			continue;
		}
		if (n == 0) {
			eof = true;
			if (len && !skipping) {	/* a last line without '\n' */
				buf[len] = '\0';
				failed += hold_run_line(t, buf);
			}
			len = 0;
			continue;
		}
		len += n;
		while ((nl = memchr(buf, '\n', len))) {
			size_t used = nl - buf + 1;

			*nl = '\0';
			if (!skipping)
				failed += hold_run_line(t, buf);
			skipping = false;
			memmove(buf, buf + used, len - used);
			len -= used;
		}
		if (len == HOLD_LINE_MAX) {
			if (!skipping) {
				errmsg_errno(E2BIG, "a command line is longer than %d bytes: skipped",
				       HOLD_LINE_MAX);
				failed++;
			}
			skipping = true;
			len = 0;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return failed;
}

static int cmd_load(int argc, char **argv)
{
	struct tool_opt opts[] = {
		{ .name = "hold" }, { .name = "commands" },
		{ .name = "exit-on-eof" },
		{ .name = "core", .arg = true }, { .name = NULL },
	};
	bool hold, commands, exit_on_eof;
	const char *plan, *why;
	struct vartab t;
	__u32 core = 0;
	int n, err, failed = 0;

	if (tool_parse_opts(cmd_name, argc - 1, argv + 1, opts, &n))
		return 2;
	commands = opts[1].seen;
	exit_on_eof = opts[2].seen;
	hold = opts[0].seen || commands || exit_on_eof;
	if (opts[3].seen) {
		if (!strcmp(opts[3].val, "any"))
			core = NEURONSIM_CORE_ANY;
		else if (parse_u32_arg("--core", opts[3].val, &core))
			return 2;
	}
	if (n < 1)
		return usage_error("missing PLAN (try --help)");
	if (n > 1)
		return usage_error("unexpected argument '%s': one PLAN only", argv[2]);
	plan = argv[1];
	vartab_init(&t);
	if (vartab_from_plan(&t, plan, core) ||
	    print_model(&t, plan, hold ? "; holding until SIGINT/SIGTERM" : "",
			hold)) {
		vartab_free(&t);
		return 1;
	}
	if (hold) {
		if (!isatty(STDIN_FILENO))
			commands = true;
		failed = hold_model(&t, commands, exit_on_eof);
		err = neuronsim_unload(t.fd, t.model_id);
		why = stop_signal == SIGINT ? "SIGINT" :
		      stop_signal == SIGTERM ? "SIGTERM" : "end of input";
		if (!tool_json)
			printf("model %u unloaded (%s)\n", t.model_id, why);
		else
			tool_json_print(json_pack("{s:I,s:b,s:s}", "model_id",
						  (json_int_t)t.model_id,
						  "unloaded", !err, "why", why));
	}
	vartab_free(&t);
	return failed ? 1 : 0;
}

const struct nsim_cmd nsim_cmd_load = {
	.name = "load",
	.summary = "load a KBIN plan (--hold keeps it loaded)",
	.usage = "load PLAN [--core N|any] [--hold [--commands] [--exit-on-eof]]",
	.help = "  load a KBIN plan; subgraph i goes to NeuronCore N + i (default 0);\n"
		"  '--core any' takes the first run of free NeuronCores.  The cores\n"
		"  are this process's until its last model on them is unloaded;\n"
		"  another process's load on them fails (EBUSY).\n"
		"  Prints the model id first.  Without --hold the model is unloaded\n"
		"  when the command exits (models belong to the fd that loaded them);\n"
		"  with --hold it stays loaded until SIGINT or SIGTERM.\n"
		"  While holding, when stdin is not a terminal (or with --commands),\n"
		"  each line of stdin is a command run against the held model:\n"
		"    resolve VAR[+OFFSET[:SIZE]]..., read VAR [+OFFSET[:LEN]], vars,\n"
		"    info, echo TEXT, help ('-j' on a line: JSON)\n"
		"  After end of input it goes on holding; --exit-on-eof unloads and\n"
		"  exits there instead (exit status 1 if a command failed).\n"
		"  --commands and --exit-on-eof imply --hold.\n"
		"  On failure prints the errno, the checker's reason, subgraph and\n"
		"  record, and the kernel's log text.\n",
	.run = cmd_load,
};
