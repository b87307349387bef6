/*
 * sched_idleprio - SCHED_IDLEPRIO (policy 5), the policy of lab policy
 * (docs/labs/policy.md): any user may choose it; beside a NORMAL hog on one
 * CPU an IDLEPRIO hog gets (almost) nothing, under 1%; alone it gets
 * (almost) all, at least 90%. Until the policy exists the first check
 * fails with EINVAL, and the hogs cannot take their policy.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#ifndef SCHED_IDLEPRIO
#define SCHED_IDLEPRIO 5	/* the number lab policy gives it */
#endif

#define WINDOW_MS 2000

/* A child of uid 1000 asks for IDLEPRIO for itself and reads it back. */
static int any_user(void *arg, char *detail, size_t n)
{
	int fd[2], got[3] = { -1, 0, -1 };
	pid_t pid;

	(void)arg;
	if (pipe(fd) < 0 || (pid = fork()) < 0) {
		snprintf(detail, n, "pipe/fork failed: errno %d", errno);
		return 0;
	}
	if (pid == 0) {
		struct sched_param sp = { .sched_priority = 0 };
		int r[3];

		close(fd[0]);
		r[0] = setresuid(1000, 1000, 1000);
		r[1] = sched_setscheduler(0, SCHED_IDLEPRIO, &sp) < 0 ? errno : 0;
		r[2] = sched_getscheduler(0);
		write(fd[1], r, sizeof(r));
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], got, sizeof(got)) != sizeof(got))
		got[0] = -1;
	close(fd[0]);
	waitpid(pid, NULL, 0);
	snprintf(detail, n, "uid 1000: setresuid %d, sched_setscheduler(0, %d) %s, "
		 "policy now %d; want 0, 0, %d", got[0], SCHED_IDLEPRIO,
		 got[1] ? strerror(got[1]) : "0", got[2], SCHED_IDLEPRIO);
	return got[0] == 0 && got[1] == 0 && got[2] == SCHED_IDLEPRIO;
}

static int beside_normal(void *arg, char *detail, size_t n)
{
	struct hog_spec spec[2] = { { .policy = SCHED_IDLEPRIO },
				    { .policy = SCHED_OTHER } };
	struct hog_report r[2];
	char a[16], b[16];
	int idle, normal;

	(void)arg;
	if (hogs_run(spec, 2, WINDOW_MS, 100, r) < 0) {
		snprintf(detail, n, "could not start the hogs (policy %d: error %d)",
			 SCHED_IDLEPRIO, r[0].error);
		return 0;
	}
	idle = permille(r[0].run_ns, WINDOW_MS * 1000000LL);
	normal = permille(r[1].run_ns, WINDOW_MS * 1000000LL);
	snprintf(detail, n, "idleprio got %s, normal %s, want idleprio < 1%%",
		 pct(idle, a), pct(normal, b));
	return idle < 10;
}

static int alone(void *arg, char *detail, size_t n)
{
	struct hog_spec spec = { .policy = SCHED_IDLEPRIO };
	struct hog_report r;
	char a[16];
	int idle;

	(void)arg;
	if (hogs_run(&spec, 1, WINDOW_MS / 2, 100, &r) < 0) {
		snprintf(detail, n, "could not start the hog (policy %d: error %d)",
			 SCHED_IDLEPRIO, r.error);
		return 0;
	}
	idle = permille(r.run_ns, WINDOW_MS / 2 * 1000000LL);
	snprintf(detail, n, "idleprio alone got %s, want >= 90%%", pct(idle, a));
	return idle >= 900;
}

int main(int argc, char **argv)
{
	char detail[200];

	test_require_our_kernel(argc, argv, 1);
	ktap_plan(3);
	ktap_ok(any_user(NULL, detail, sizeof(detail)),
		"idleprio_is_policy_5_for_any_user", "%s", detail);
	ktap_ok(test_retry_once(beside_normal, NULL, detail, sizeof(detail)),
		"idleprio_idle_only_beside_normal", "%s", detail);
	ktap_ok(test_retry_once(alone, NULL, detail, sizeof(detail)),
		"idleprio_alone_gets_the_cpu", "%s", detail);
	return ktap_done();
}
