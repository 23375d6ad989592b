/*
 * spritzer-runas: starts one program of a sprite as the user the agent names, holding the file capabilities it names.
 *
 *   spritzer-runas UID GID GROUPS CAPS STATUS_FD FILE ARGV0 [ARG...]
 *
 * Run by the in-sprite agent (root of the sprite's user namespace) for every exec and service process. It
 *  1. sets the supplementary groups to exactly GROUPS (a comma-separated list of gids, e.g. "27,100" for the
 *     sprite user's sudo and users; or "-" for none; setgroups(2)),
 *     becomes gid GID (setresgid) and, keeping its permitted capabilities across the change (PR_SET_KEEPCAPS),
 *     uid UID (setresuid);
 *  2. when CAPS is not "-": sets its permitted, effective and inheritable sets to exactly CAPS (a comma-separated
 *     list of CAP_CHOWN, CAP_DAC_OVERRIDE, CAP_FOWNER, CAP_FSETID; no other name is accepted) and raises each as an
 *     ambient capability (PR_CAP_AMBIENT_RAISE), so the program and every ordinary program it execs keeps them
 *     (capabilities(7) "Ambient capability set"; no_new_privs does not clear ambient capabilities, and a set-user-ID
 *     or file-capability program, which would, gains nothing under no_new_privs anyway). With "-" the uid change
 *     leaves what the kernel leaves: nothing for a non-root UID, everything the agent holds for UID 0;
 *  3. marks STATUS_FD (a number, or -1 for none) close-on-exec and execs FILE (searched on PATH as execvp(3) does)
 *     with ARGV0 and the ARGs.
 * When a step fails it writes "STEP ERRNO\n" to STATUS_FD (when given, and nothing to stderr: the agent words the
 * failure) or "spritzer-runas: STEP: <strerror>\n" to stderr, and exits 127 for a program that is not there
 * (ENOENT), else 126. A successful exec closes STATUS_FD with nothing written.
 * Every capability here is one of the sprite's user namespace: the agent's own set (bubblewrap's --cap-add in the
 * sandbox, the container's) bounds it, and none reaches outside the sprite. See docs/security.md "Exec sessions
 * hold file capabilities", capabilities(7), prctl(2), capset(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_RAISE 2
#endif

static const struct {
  const char *name;
  int cap;
} KNOWN[] = {
    {"CAP_CHOWN", CAP_CHOWN},
    {"CAP_DAC_OVERRIDE", CAP_DAC_OVERRIDE},
    {"CAP_FOWNER", CAP_FOWNER},
    {"CAP_FSETID", CAP_FSETID},
};

static int status_fd = -1;

/* Most supplementary groups GROUPS may name (protocol/agent.ts MAX_SPAWN_GROUPS; the kernel allows 65536). */
#define MAX_GROUPS 64

/* Reports the failed step (with errno) as the header says, and exits. */
static void fail(const char *step) {
  int err = errno;
  if (status_fd >= 0) {
    char line[96];
    int n = snprintf(line, sizeof line, "%s %d\n", step, err);
    if (n > 0 && write(status_fd, line, (size_t)n) < 0) { /* the agent went away: nothing to tell */ }
  } else {
    fprintf(stderr, "spritzer-runas: %s: %s\n", step, strerror(err));
  }
  _exit(err == ENOENT ? 127 : 126);
}

static void usage(const char *why) {
  fprintf(stderr, "spritzer-runas: %s\nusage: spritzer-runas UID GID GROUPS CAPS STATUS_FD FILE ARGV0 [ARG...]\n", why);
  _exit(126);
}

static long number(const char *s, long min, long max, const char *what) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *s == '\0' || *end != '\0' || v < min || v > max) usage(what);
  return v;
}

/* Reads GROUPS ("-" or gids separated by commas) into `out` (room for MAX_GROUPS); returns how many, or exits. */
static size_t group_list(const char *groups, gid_t *out) {
  if (strcmp(groups, "-") == 0) return 0;
  size_t n = 0;
  const char *p = groups;
  for (;;) {
    char *end;
    errno = 0;
    unsigned long v = strtoul(p, &end, 10);
    if (*p < '0' || *p > '9' || errno || v > 0xfffffffeUL) usage("GROUPS must be gids separated by commas, or -");
    if (n == MAX_GROUPS) usage("GROUPS names too many groups");
    out[n++] = (gid_t)v;
    if (*end == '\0') return n;
    if (*end != ',') usage("GROUPS must be gids separated by commas, or -");
    p = end + 1;
  }
}

/* The capability bits CAPS names (bit n of the 64-bit mask is capability n), or exits on an unknown name. */
static unsigned long long capability_mask(const char *caps) {
  unsigned long long mask = 0;
  if (strcmp(caps, "-") == 0) return 0;
  char *list = strdup(caps);
  if (!list) usage("out of memory");
  for (char *save = NULL, *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
    size_t i = 0;
    while (i < sizeof KNOWN / sizeof KNOWN[0] && strcmp(KNOWN[i].name, name) != 0) i++;
    if (i == sizeof KNOWN / sizeof KNOWN[0]) usage("CAPS names a capability this helper does not give");
    mask |= 1ULL << KNOWN[i].cap;
  }
  free(list);
  if (mask == 0) usage("CAPS is empty (use - for none)");
  return mask;
}

int main(int argc, char **argv) {
  if (argc < 8) usage("too few arguments");
  uid_t uid = (uid_t)number(argv[1], 0, 0xfffffffeL, "UID must be a number");
  gid_t gid = (gid_t)number(argv[2], 0, 0xfffffffeL, "GID must be a number");
  gid_t groups[MAX_GROUPS];
  size_t ngroups = group_list(argv[3], groups);
  unsigned long long mask = capability_mask(argv[4]);
  status_fd = (int)number(argv[5], -1, 1 << 20, "STATUS_FD must be a descriptor number or -1");
  const char *file = argv[6];

  if (status_fd >= 0 && fcntl(status_fd, F_SETFD, FD_CLOEXEC) != 0) {
    status_fd = -1;
    fail("status descriptor");
  }
  if (setgroups(ngroups, ngroups ? groups : NULL) != 0) fail("setgroups");
  if (setresgid(gid, gid, gid) != 0) fail("setresgid");
  if (mask && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0) fail("prctl(PR_SET_KEEPCAPS)");
  if (setresuid(uid, uid, uid) != 0) fail("setresuid");
  if (mask) {
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    for (int i = 0; i < 2; i++) {
      __u32 word = (__u32)(mask >> (32 * i));
      data[i].permitted = data[i].effective = data[i].inheritable = word;
    }
    if (syscall(SYS_capset, &header, data) != 0) fail("capset");
    for (size_t i = 0; i < sizeof KNOWN / sizeof KNOWN[0]; i++) {
      if ((mask >> KNOWN[i].cap) & 1) {
        if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, (unsigned long)KNOWN[i].cap, 0, 0) != 0) fail("prctl(PR_CAP_AMBIENT_RAISE)");
      }
    }
    if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) != 0) fail("prctl(PR_SET_KEEPCAPS)");
  }
  execvp(file, argv + 7);
  fail("exec");
  return 126;
}
