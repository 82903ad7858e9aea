// SPDX-License-Identifier: GPL-2.0
/*
 * monitor.c - "monitor": neuron-monitor's report (-j, -c FILE), one JSON
 * object per line every period, built by monitor_report.c from samples
 * this file takes (/proc, the devices' snapshot, EXEC_DONE events); the
 * same report as the Prometheus exposition of neuron-monitor's exporter
 * (--prometheus: on stdout, once or every period, or served over HTTP on
 * 127.0.0.1); and the netlink events, every field the kernel sends
 * (plain "monitor", --events), with --period text reports of the
 * NeuronCores' memory.  Documentation/userspace.rst, "monitor".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "main.h"
#include "monitor_report.h"

/* the first report covers at most this much time after the start */
#define FIRST_REPORT_NS	100000000ULL

/* what the monitor does */
enum mon_mode {
	MODE_EVENTS,		/* events (text or -j), text reports with --period */
	MODE_REPORT,		/* neuron-monitor's JSON reports */
	MODE_PROMETHEUS,	/* the exporter's exposition */
};

struct mon {
	enum mon_mode mode;
	long left;		/* outputs before stopping, -1: no limit */
	double period;		/* seconds between reports, 0: none (events) */
	bool once;		/* --prometheus once */
	int port;		/* --prometheus --port N, 0: stdout */
};

/* ---- the events */

static void model_json(json_t *o, const struct neuronsim_nl_model *m)
{
	json_object_set_new(o, "model_id", json_integer(m->model_id));
	json_object_set_new(o, "target_gen", json_integer(m->target_gen));
	json_object_set_new(o, "num_subgraphs", json_integer(m->num_subgraphs));
	json_object_set_new(o, "first_core", json_integer(m->first_core));
	json_object_set_new(o, "num_vars", json_integer(m->num_vars));
	json_object_set_new(o, "hbm_bytes", json_integer(m->hbm_bytes));
	json_object_set_new(o, "scratchpad_bytes", json_integer(m->scratchpad_bytes));
}

/* one output line done; true when --count is reached */
static bool mon_done(struct mon *mo)
{
	fflush(stdout);
	return mo->left > 0 && --mo->left == 0;
}

static int monitor_cb(const struct neuronsim_nl_event *e, void *ctx)
{
	struct mon *mo = ctx;

	if (dev_index >= 0 && e->model.device != (__u32)dev_index)
		return 0;
	if (tool_json) {
		json_t *o = json_pack("{s:s,s:I}", "event", event_name(e->cmd),
				      "owner_pid", (json_int_t)e->model.owner_pid);

		if (e->cmd == NEURONSIM_CMD_LOAD_FAILED) {
			json_object_set_new(o, "errno", json_integer(e->err_errno));
			json_object_set_new(o, "error", json_string(tool_errno_name(e->err_errno)));
			json_object_set_new(o, "reason", json_integer(e->err_reason));
			json_object_set_new(o, "reason_text",
					    json_string(neuronsim_reason_str(e->err_reason)));
			json_object_set_new(o, "field", json_integer(e->err_field));
			json_object_set_new(o, "field_text",
					    json_string(neuronsim_field_str(e->err_field)));
			json_object_set_new(o, "subgraph", json_integer(e->err_subgraph));
			json_object_set_new(o, "record", json_integer(e->err_record));
		} else if (e->cmd == NEURONSIM_CMD_RUN_DONE) {
			json_object_set_new(o, "model_id", json_integer(e->model.model_id));
			json_object_set_new(o, "subgraph", json_integer(e->run_subgraph));
			json_object_set_new(o, "queue", json_text(e->run_queue_name));
			json_object_set_new(o, "index", json_integer(e->run_queue));
			json_object_set_new(o, "errno", json_integer(e->run_status));
			json_object_set_new(o, "blocks", json_integer(e->run_blocks));
			json_object_set_new(o, "descs", json_integer(e->run_descs));
			json_object_set_new(o, "bytes", json_integer(e->run_bytes));
			json_object_set_new(o, "ns", json_integer(e->run_ns));
		} else if (e->cmd == NEURONSIM_CMD_EXEC_DONE) {
			json_object_set_new(o, "model_id", json_integer(e->model.model_id));
			json_object_set_new(o, "errno", json_integer(e->exec_status));
			json_object_set_new(o, "subgraphs", json_integer(e->exec_subgraphs));
			json_object_set_new(o, "instructions", json_integer(e->exec_instructions));
			json_object_set_new(o, "blocks", json_integer(e->exec_blocks));
			json_object_set_new(o, "bytes", json_integer(e->exec_bytes));
			json_object_set_new(o, "virtual_ns", json_integer(e->exec_virtual_ns));
			json_object_set_new(o, "wall_ns", json_integer(e->exec_wall_ns));
			json_object_set_new(o, "not_simulated",
					    json_integer(e->exec_not_simulated));
		} else {
			model_json(o, &e->model);
		}
		json_object_set_new(o, "device", json_integer(e->model.device));
		tool_json_print(o);
	} else if (e->cmd == NEURONSIM_CMD_LOAD_FAILED) {
		printf("load_failed pid %u: %s (%s), reason %u: %s, field %s, subgraph %d record %d, device %u\n",
		       e->model.owner_pid, strerror(e->err_errno),
		       tool_errno_name(e->err_errno), e->err_reason,
		       neuronsim_reason_str(e->err_reason),
		       neuronsim_field_str(e->err_field), e->err_subgraph,
		       e->err_record, e->model.device);
	} else if (e->cmd == NEURONSIM_CMD_RUN_DONE) {
		printf("run_done model %u sg%u/%s: %s, %u blocks, %u descriptors, %llu bytes in %.3f ms, device %u\n",
		       e->model.model_id, e->run_subgraph, e->run_queue_name,
		       e->run_status ? strerror(e->run_status) : "ok", e->run_blocks,
		       e->run_descs, (unsigned long long)e->run_bytes,
		       e->run_ns / 1e6, e->model.device);
	} else if (e->cmd == NEURONSIM_CMD_EXEC_DONE) {
		printf("exec_done model %u: %s, %u subgraphs, %llu instructions, %llu DMA blocks, %llu bytes, %.3f us virtual in %.3f ms, %llu 0xD4 not simulated, device %u\n",
		       e->model.model_id,
		       e->exec_status ? strerror(e->exec_status) : "finished",
		       e->exec_subgraphs, (unsigned long long)e->exec_instructions,
		       (unsigned long long)e->exec_blocks,
		       (unsigned long long)e->exec_bytes, e->exec_virtual_ns / 1e3,
		       e->exec_wall_ns / 1e6,
		       (unsigned long long)e->exec_not_simulated, e->model.device);
	} else {
		printf("%s model %u pid %u: %u subgraphs from NeuronCore %u, %llu vars, %llu bytes HBM, %llu bytes scratchpad, target gen %u, device %u\n",
		       event_name(e->cmd), e->model.model_id, e->model.owner_pid,
		       e->model.num_subgraphs, e->model.first_core,
		       (unsigned long long)e->model.num_vars,
		       (unsigned long long)e->model.hbm_bytes,
		       (unsigned long long)e->model.scratchpad_bytes,
		       e->model.target_gen, e->model.device);
	}
	return mon_done(mo) ? 1 : 0;
}

/* the text report of the event mode: one line per NeuronCore in use */
static int text_report(struct mon *mo)
{
	struct snap s;
	size_t i;
	__u32 c;

	if (snap_take(&s))
		return -1;
	for (i = 0; i < s.ndev; i++)
		for (c = 0; snap_wanted(&s.dev[i]) && c < s.dev[i].d.num_cores &&
		     c < NEURONSIM_MAX_CORES; c++)
			if (s.dev[i].core[c].used)
				printf("report device %u NeuronCore %u pid %u: %llu bytes, tensors %llu, constants %llu\n",
				       s.dev[i].d.device, c,
				       s.dev[i].d.cores[c].owner_pid,
				       (unsigned long long)s.dev[i].core[c].used,
				       (unsigned long long)s.dev[i].core[c].mem[KBIN_MEMCAT_TENSORS],
				       (unsigned long long)s.dev[i].core[c].mem[KBIN_MEMCAT_CONSTANTS]);
	snap_free(&s);
	return mon_done(mo) ? 1 : 0;
}

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + (__u64)ts.tv_nsec;
}

static int run_events(struct mon *mo)
{
	struct neuronsim_nl *nl;
	__u64 next = 0, period = (__u64)(mo->period * 1e9);
	int err;

	err = neuronsim_nl_open(&nl);
	if (!err)
		err = neuronsim_nl_subscribe(nl);
	if (err) {
		errmsg_errno(err, "netlink group '%s' of '%s': %s",
			     NEURONSIM_GENL_MCGRP_MONITOR, NEURONSIM_GENL_NAME,
			     strerror(-err));
		neuronsim_nl_close(nl);
		return 1;
	}
	install_stop_handlers();
	if (!tool_json) {
		printf("monitoring '%s' events (^C to stop)\n", NEURONSIM_GENL_NAME);
		fflush(stdout);
	}
	if (period)
		next = now_ns();
	while (!stop_signal) {
		int timeout = -1;

		if (period) {
			__u64 t = now_ns();

			if (t >= next) {
				err = text_report(mo);
				if (err)
					break;
				next += period;
				if (next < t)
					next = t + period;
			}
			t = now_ns();
			timeout = next > t ? (int)((next - t) / 1000000) + 1 : 0;
		}
		err = neuronsim_nl_read_events(nl, timeout, monitor_cb, mo);
		if (err == -ECANCELED) {
			err = 0;
			break;
		}
		if (err < 0 && err != -EINTR) {
			errmsg_errno(err, "reading events: %s", strerror(-err));
			break;
		}
		err = 0;
	}
	neuronsim_nl_close(nl);
	if (err > 0)	/* --count reached by a report */
		err = 0;
	return err ? 1 : 0;
}

/* ---- the sampler of the reports */

/*
 * What the reports need besides one moment's snapshot: the executions
 * that ended (EXEC_DONE, "runs") with their model's owner and
 * NeuronCores, which the models known at the event tell.
 */
struct sampler {
	struct neuronsim_nl *nl;	/* subscribed, NULL when that failed */
	bool runs;			/* "runs" joined */
	bool lost;			/* ENOBUFS since the last sample */
	struct neuronsim_nl_model *models;
	size_t nmodels, mcap;
	struct mr_exec *log;
	size_t nlog, lcap;
};

static void sampler_add_model(struct sampler *sp, const struct neuronsim_nl_model *m)
{
	if (sp->nmodels == sp->mcap) {
		size_t cap = sp->mcap ? 2 * sp->mcap : 16;
		struct neuronsim_nl_model *n = realloc(sp->models, cap * sizeof(*n));

		if (!n)
			return;
		sp->models = n;
		sp->mcap = cap;
	}
	sp->models[sp->nmodels++] = *m;
}

static int sampler_cb(const struct neuronsim_nl_event *e, void *ctx)
{
	struct sampler *sp = ctx;
	struct mr_exec x = { 0 };
	size_t i;

	if (e->cmd == NEURONSIM_CMD_MODEL_LOADED)
		sampler_add_model(sp, &e->model);
	if (e->cmd != NEURONSIM_CMD_EXEC_DONE)
		return 0;
	x.end_ns = now_ns();
	x.wall_ns = e->exec_wall_ns;
	x.virtual_ns = e->exec_virtual_ns;
	x.status = e->exec_status;
	x.device = e->model.device;
	x.model_id = e->model.model_id;
	x.num_cores = e->exec_subgraphs;
	/* the latest entry of the model: its owner and first NeuronCore */
	for (i = sp->nmodels; i-- > 0;)
		if (sp->models[i].device == x.device &&
		    sp->models[i].model_id == x.model_id) {
			x.pid = sp->models[i].owner_pid;
			x.first_core = sp->models[i].first_core;
			break;
		}
	if (!x.pid)
		x.num_cores = 0;	/* no NeuronCore known */
	if (sp->nlog == sp->lcap) {
		size_t cap = sp->lcap ? 2 * sp->lcap : 64;
		struct mr_exec *n = realloc(sp->log, cap * sizeof(*n));

		if (!n) {
			sp->lost = true;
			return 0;
		}
		sp->log = n;
		sp->lcap = cap;
	}
	sp->log[sp->nlog++] = x;
	return 0;
}

/* the events that came: into the log */
static void sampler_drain(struct sampler *sp, int timeout_ms)
{
	int err;

	if (!sp->nl) {
		if (timeout_ms > 0)
			poll(NULL, 0, timeout_ms);
		return;
	}
	err = neuronsim_nl_read_events(sp->nl, timeout_ms, sampler_cb, sp);
	if (err == -ENOBUFS)
		sp->lost = true;
}

/* forget the executions that ended before @oldest */
static void sampler_prune(struct sampler *sp, __u64 oldest)
{
	size_t i, n = 0;

	for (i = 0; i < sp->nlog; i++)
		if (sp->log[i].end_ns > oldest)
			sp->log[n++] = sp->log[i];
	sp->nlog = n;
}

/* subscribe; a sampler without the module tries again at each sample */
static void sampler_connect(struct sampler *sp)
{
	if (neuronsim_nl_open(&sp->nl)) {
		sp->nl = NULL;
		return;
	}
	if (neuronsim_nl_subscribe(sp->nl)) {
		neuronsim_nl_close(sp->nl);
		sp->nl = NULL;
		return;
	}
	sp->runs = neuronsim_nl_runs_joined(sp->nl) == 1;
}

static void sampler_open(struct sampler *sp)
{
	memset(sp, 0, sizeof(*sp));
	sampler_connect(sp);
}

static void sampler_close(struct sampler *sp)
{
	neuronsim_nl_close(sp->nl);
	free(sp->models);
	free(sp->log);
	memset(sp, 0, sizeof(*sp));
}

/* a whole (small) file; NULL when unreadable */
static char *read_text(const char *path)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *nb;

			cap = cap ? 2 * cap : 8192;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n > 0)
			len += n;
	} while (n > 0 || (n < 0 && errno == EINTR));
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* /proc/PID: its CPU times, resident memory and tag */
static void read_proc(struct mr_proc *p)
{
	char path[64], *t, *q;
	size_t len;

	snprintf(p->tag, sizeof(p->tag), "%u", p->pid);
	snprintf(path, sizeof(path), "/proc/%u/stat", p->pid);
	t = read_text(path);
	/* after the command's ")": state, then 11 fields to utime, stime */
	q = t ? strrchr(t, ')') : NULL;
	if (q && sscanf(q + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			(unsigned long long *)&p->utime,
			(unsigned long long *)&p->stime) == 2)
		p->stat_ok = true;
	free(t);
	/*
	 * Resident memory: smaps_rollup's Rss (walks the page tables; its
	 * owner and root may read it), else status's VmRSS, which the
	 * kernel's per-task counter caching can leave far behind
	 */
	snprintf(path, sizeof(path), "/proc/%u/smaps_rollup", p->pid);
	t = read_text(path);
	q = t ? strstr(t, "\nRss:") : NULL;
	if (!q) {
		free(t);
		snprintf(path, sizeof(path), "/proc/%u/status", p->pid);
		t = read_text(path);
		q = t ? strstr(t, "\nVmRSS:") : NULL;
	}
	if (q)
		p->rss_bytes = strtoull(strchr(q, ':') + 1, NULL, 10) * 1024;
	free(t);
	/* NEURON_PROCESS_TAG: readable by its owner and root only */
	snprintf(path, sizeof(path), "/proc/%u/environ", p->pid);
	t = read_text(path);
	for (q = t, len = 0; q && *q; q += len + 1) {
		len = strlen(q);
		if (!strncmp(q, "NEURON_PROCESS_TAG=", 19) && q[19]) {
			snprintf(p->tag, sizeof(p->tag), "%s", q + 19);
			break;
		}
	}
	free(t);
}

static struct mr_sample *take_sample(struct sampler *sp)
{
	struct mr_sample *s = mr_sample_new();
	size_t i, k;
	__u32 c;

	if (!s)
		return NULL;
	if (!sp->nl)
		sampler_connect(sp);
	sampler_drain(sp, 0);
	s->t_ns = now_ns();
	s->proc_stat = read_text("/proc/stat");
	s->meminfo = read_text("/proc/meminfo");
	s->snap_ok = !snap_read(&s->snap, s->snap_error, sizeof(s->snap_error));
	s->execs_known = sp->runs;
	s->execs_lost = sp->lost;
	sp->lost = false;
	if (sp->nlog) {
		s->execs = malloc(sp->nlog * sizeof(*s->execs));
		for (i = 0; s->execs && i < sp->nlog; i++)
			if (sp->log[i].end_ns <= s->t_ns)
				s->execs[s->nexecs++] = sp->log[i];
	}
	if (!s->snap_ok)
		return s;
	/* the models now known: those of the snapshot */
	sp->nmodels = 0;
	for (i = 0; i < s->snap.nmodels; i++)
		sampler_add_model(sp, &s->snap.models[i]);
	s->procs = calloc(NEURONSIM_MAX_DEVICES * NEURONSIM_MAX_CORES, sizeof(*s->procs));
	for (i = 0; s->procs && i < s->snap.ndev; i++)
		for (c = 0; c < s->snap.dev[i].d.num_cores && c < NEURONSIM_MAX_CORES; c++) {
			__u32 pid = s->snap.dev[i].d.cores[c].owner_pid;

			for (k = 0; pid && k < s->nprocs && s->procs[k].pid != pid; k++)
				;
			if (pid && k == s->nprocs) {
				s->procs[s->nprocs].pid = pid;
				read_proc(&s->procs[s->nprocs++]);
			}
		}
	return s;
}

/* ---- the exposition over HTTP */

static int http_listen(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons((unsigned short)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1, fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 8)) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

/* a client that went away is an EPIPE here, not a SIGPIPE that ends the monitor */
static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w <= 0 && errno != EINTR)
			return;
		if (w > 0) {
			p += w;
			n -= w;
		}
	}
}

/*
 * One request: its head is read (up to 8 KiB, 2 s in all: a client that
 * trickles bytes does not hold the monitor longer), a GET gets the
 * latest exposition (any path, as the exporter), anything else 405.
 */
static void http_serve(int lfd, const char *body, size_t len)
{
	struct timeval tv = { .tv_sec = 2 };
	__u64 end = now_ns() + 2000000000ull;
	char req[8192], head[256];
	size_t got = 0;
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	while (got < sizeof(req) - 1) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		__u64 t = now_ns();
		ssize_t n;

		if (t >= end || poll(&pfd, 1, (int)((end - t) / 1000000) + 1) <= 0)
			break;
		n = read(fd, req + got, sizeof(req) - 1 - got);
		if (n <= 0)
			break;
		got += n;
		req[got] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			break;
	}
	req[got] = '\0';
	if (strncmp(req, "GET ", 4)) {
		static const char no[] = "HTTP/1.0 405 Method Not Allowed\r\n"
			"Content-Length: 0\r\nConnection: close\r\n\r\n";

		write_all(fd, no, sizeof(no) - 1);
	} else {
		snprintf(head, sizeof(head), "HTTP/1.0 200 OK\r\n"
			 "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
			 "Content-Length: %zu\r\nConnection: close\r\n\r\n", len);
		write_all(fd, head, strlen(head));
		write_all(fd, body ? body : "", len);
	}
	close(fd);
}

/* ---- the reports */

/* wait for the next report, taking events (and HTTP requests) meanwhile */
static void wait_until(struct sampler *sp, __u64 due, int lfd,
		       const char *body, size_t len)
{
	while (!stop_signal) {
		__u64 t = now_ns();
		struct pollfd pfd[2];
		int timeout, n = 0;

		if (t >= due)
			return;
		timeout = (int)((due - t) / 1000000) + 1;
		if (sp->nl) {
			pfd[n].fd = neuronsim_nl_event_fd(sp->nl);
			pfd[n++].events = POLLIN;
		}
		if (lfd >= 0) {
			pfd[n].fd = lfd;
			pfd[n++].events = POLLIN;
		}
		if (poll(pfd, n, timeout) <= 0)
			continue;
		if (sp->nl && (pfd[0].revents & POLLIN))
			sampler_drain(sp, 0);
		if (lfd >= 0 && (pfd[n - 1].revents & POLLIN))
			http_serve(lfd, body, len);
	}
}

static int run_reports(struct mon *mo, const struct mr_config *cfg)
{
	struct mr_opts o = { .dev_filter = dev_index, .clk_tck = sysconf(_SC_CLK_TCK) };
	struct mr_sample *first, *cur;
	struct sampler sp;
	struct mr_state st;
	struct mr_prom prom = { 0 };
	char *text = NULL;
	size_t len = 0;
	int lfd = -1, rc = 0;

	if (mo->mode == MODE_PROMETHEUS && mr_prom_init(&prom)) {
		errmsg_errno(ENOMEM, "%s", strerror(ENOMEM));
		return 1;
	}
	if (mo->port) {
		lfd = http_listen(mo->port);
		if (lfd < 0) {
			errmsg_errno(-lfd, "127.0.0.1:%d: %s", mo->port, strerror(-lfd));
			mr_prom_free(&prom);
			return 1;
		}
	}
	install_stop_handlers();
	sampler_open(&sp);
	first = take_sample(&sp);
	/* the first report soon after the start, as neuron-monitor's */
	if (!first || mr_state_init(&st, cfg, &o, first, first->t_ns + FIRST_REPORT_NS)) {
		errmsg_errno(ENOMEM, "%s", strerror(ENOMEM));
		mr_sample_put(first);
		sampler_close(&sp);
		mr_prom_free(&prom);
		if (lfd >= 0)
			close(lfd);
		return 1;
	}
	mr_sample_put(first);
	while (!rc && !stop_signal) {
		json_t *rep;

		wait_until(&sp, mr_state_next_ns(&st), lfd, text, len);
		if (stop_signal)
			break;
		cur = take_sample(&sp);
		rep = cur ? mr_state_report(&st, cur) : NULL;
		mr_sample_put(cur);
		if (!rep) {
			errmsg_errno(ENOMEM, "%s", strerror(ENOMEM));
			rc = 1;
			break;
		}
		sampler_prune(&sp, mr_state_oldest_ns(&st));
		if (mo->mode == MODE_REPORT) {
			if (tool_json_print_flags(rep, JSON_REAL_PRECISION(15)))
				rc = 1;	/* stdout is gone */
		} else {
			free(text);
			text = mr_prom_render(&prom, rep, &len);
			json_decref(rep);
			if (!text) {
				errmsg_errno(ENOMEM, "%s", strerror(ENOMEM));
				rc = 1;
				break;
			}
			/* served, or printed: expositions apart by an empty line */
			if (lfd < 0 && (fwrite(text, 1, len, stdout) != len ||
					(!mo->once && putchar('\n') == EOF)))
				rc = 1;
		}
		if (mon_done(mo))
			break;
	}
	free(text);
	mr_state_free(&st);
	sampler_close(&sp);
	mr_prom_free(&prom);
	if (lfd >= 0)
		close(lfd);
	return rc;
}

/* the largest configuration file */
#define CONFIG_MAX	(1 << 20)

/*
 * Read as a stream, so that a pipe is a file too (-c <(...),
 * -c /dev/stdin); a directory is EISDIR.
 */
static int load_config(const char *path, struct mr_config *cfg)
{
	char err[512], *text = malloc(CONFIG_MAX + 1);
	FILE *f = fopen(path, "re");
	size_t n = 0;
	int e = 0;

	if (!f || !text) {
		e = f ? ENOMEM : errno;
		errmsg_errno(e, "-c %s: %s", path, strerror(e));
		free(text);
		if (f)
			fclose(f);
		return f ? 1 : 2;
	}
	n = fread(text, 1, CONFIG_MAX + 1, f);
	if (ferror(f))
		e = errno ? errno : EIO;
	fclose(f);
	if (e || n > CONFIG_MAX) {
		if (e)
			errmsg_errno(e, "-c %s: %s", path, strerror(e));
		else
			errmsg_errno(EFBIG, "-c %s: larger than 1 MiB", path);
		free(text);
		return 2;
	}
	text[n] = '\0';
	if (mr_config_parse(cfg, text, err, sizeof(err))) {
		errmsg_errno(EINVAL, "-c %s: %s", path, err);
		free(text);
		return 2;
	}
	free(text);
	return 0;
}

static int cmd_monitor(int argc, char **argv)
{
	struct tool_opt opts[] = {
		{ .name = "count", .arg = true }, { .name = "period", .arg = true },
		{ .name = "prometheus" }, { .name = "events" },
		{ .name = "c", .arg = true }, { .name = "port", .arg = true },
		{ .name = NULL },
	};
	struct mon mo = { .left = -1 };
	struct mr_config cfg;
	__u32 v;
	int n, rc;

	if (tool_parse_opts(cmd_name, argc - 1, argv + 1, opts, &n))
		return 2;
	mo.once = n == 1 && !strcmp(argv[1], "once");
	if (n && !(mo.once && opts[2].seen))
		return usage_error("unexpected argument '%s' (try --help)", argv[1]);
	if (opts[0].seen) {
		if (parse_u32_arg("--count", opts[0].val, &v))
			return 2;
		mo.left = v ? (long)v : -1;
	}
	if (opts[1].seen && parse_seconds_arg("--period", opts[1].val, &mo.period))
		return 2;
	if (opts[5].seen) {
		if (parse_u32_arg("--port", opts[5].val, &v))
			return 2;
		if (!v || v > 65535)
			return usage_error("--port %s is not a TCP port (1..65535)", opts[5].val);
		mo.port = (int)v;
	}
	if (opts[2].seen) {
		mo.mode = MODE_PROMETHEUS;
		if (tool_json)
			return usage_error("--prometheus and -j are two forms of the report: pick one");
		if (opts[3].seen)
			return usage_error("--prometheus has no events");
		if (mo.port && mo.once)
			return usage_error("--prometheus: --port N or once, not both");
		/* once unless served or given a period (--period, -c) */
		if (!mo.port && !opts[1].seen && !opts[4].seen)
			mo.once = true;
		if (mo.once)
			mo.left = 1;
	} else if (opts[5].seen) {
		return usage_error("--port goes with --prometheus");
	} else if (opts[3].seen || (!tool_json && !opts[4].seen)) {
		mo.mode = MODE_EVENTS;
		if (opts[4].seen)
			return usage_error("-c configures the report (-j), not the events");
		if (tool_json && opts[1].seen)
			return usage_error("-j --events prints events only: the report is -j without --events");
		return run_events(&mo);
	} else {
		mo.mode = MODE_REPORT;
	}
	if (opts[4].seen) {
		rc = load_config(opts[4].val, &cfg);
		if (rc)
			return rc;
		if (mo.period > 0)	/* --period is the root period */
			cfg.period = mo.period;
	} else if (mr_config_default(&cfg, mo.period > 0 ? mo.period : MR_DEFAULT_PERIOD)) {
		errmsg_errno(ENOMEM, "%s", strerror(ENOMEM));
		return 1;
	}
	rc = run_reports(&mo, &cfg);
	mr_config_free(&cfg);
	return rc;
}

const struct nsim_cmd nsim_cmd_monitor = {
	.name = "monitor",
	.summary = "neuron-monitor's report, its Prometheus series, or the events",
	.usage = "monitor [--events] [-c FILE] [--period SECONDS] [--count N] [--prometheus [--port N | once]]",
	.help = "  Without -j: the netlink events, one line each: MODEL_LOADED,\n"
		"  MODEL_UNLOADED and LOAD_FAILED of the 'monitor' group and, for root\n"
		"  (CAP_SYS_ADMIN), RUN_DONE and EXEC_DONE of the 'runs' group, every\n"
		"  field the kernel sends, of device N or without -d of every device;\n"
		"  with --period SECONDS also a text line per NeuronCore in use every\n"
		"  SECONDS.  -j --events: the events as JSON, one object per line.\n"
		"  -j (or -c FILE): neuron-monitor's report, one JSON object per line\n"
		"  and nothing else on stdout: neuron_runtime_data (per process holding\n"
		"  NeuronCores: neuroncore_counters, execution_stats, memory_used,\n"
		"  neuron_runtime_vcpu_usage), system_data (neuron_hw_counters,\n"
		"  vcpu_usage, memory_info), instance_info, neuron_hardware_info;\n"
		"  the first soon after the start, then every period: 5 s, the\n"
		"  configuration's, or --period SECONDS.  -c FILE: neuron-monitor's\n"
		"  JSON configuration (period, neuron_runtimes[{tag_filter, metrics}],\n"
		"  system_metrics); a bad one exits 2.  Executions are counted from\n"
		"  EXEC_DONE, which only root receives.\n"
		"  --prometheus: the report as the series of neuron-monitor's\n"
		"  Prometheus exporter on stdout: once (or 'once'), every period with\n"
		"  --period or -c; or served at http://127.0.0.1:N/ with --port N.\n"
		"  --count N: stop after N lines (events, reports or expositions).\n",
	.run = cmd_monitor,
};
