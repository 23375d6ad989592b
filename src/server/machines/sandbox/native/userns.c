/*
 * spritzer-userns: gives one sandbox sprite its own user namespace and idmapped views of the read-only base.
 *
 *   spritzer-userns HOST_BASE COUNT INOTIFY_INSTANCES INOTIFY_WATCHES N [SRC DEST]xN M [LOWER UPPER WORK TARGET]xM -- COMMAND...
 *
 * Run as root (init user namespace) inside the sprite's private mount namespace. It
 *  1. forks a child that becomes host uid/gid HOST_BASE and unshares a user namespace (so the namespace's owner,
 *     which the kernel charges for inotify and every other per-user count at the host level, is the sprite's own
 *     host uid, never root);
 *  2. writes the child's uid_map and gid_map: ids 0..COUNT-1 inside are HOST_BASE..HOST_BASE+COUNT-1 outside;
 *  3. has the child (root of the new namespace) write that namespace's /proc/sys/user/max_inotify_instances and
 *     max_inotify_watches (0 leaves a value as inherited), and max_user_namespaces = 0 (no namespace nests in it);
 *  4. for each SRC DEST pair: clones the mount at SRC (open_tree), makes the clone read-only and idmapped through
 *     the new namespace (mount_setattr MOUNT_ATTR_IDMAP: a file of host uid u is seen as HOST_BASE+u, so the
 *     host's root-owned base looks root-owned inside), and attaches it at DEST (move_mount);
 *  5. mounts each overlay (lowerdir=LOWER, upperdir=UPPER, workdir=WORK at TARGET), still in the host's user
 *     namespace, so the overlay's mounter is host root and the sprite cannot change it;
 *  6. joins the new namespace (setns) as its root (uid and gid 0 inside: HOST_BASE outside, every capability of
 *     that namespace and none of the host's) and execs COMMAND with descriptors 0-4 only (bubblewrap, which creates the sprite's mount,
 *     PID, network, IPC and UTS namespaces there, so all of them belong to the sprite's user namespace).
 * Exits 125 with a message on stderr when any step fails. Linux >= 5.12 (mount_setattr).
 * See docs/sandbox.md "User namespaces", user_namespaces(7), mount_setattr(2), open_tree(2), move_mount(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/mount.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436 /* the same on every architecture */
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static void die(const char *what) {
  fprintf(stderr, "spritzer-userns: %s: %s\n", what, strerror(errno));
  exit(125);
}

static unsigned long number(const char *s, const char *what) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (errno || *s == '\0' || *end != '\0') {
    fprintf(stderr, "spritzer-userns: %s must be a number, not %s\n", what, s);
    exit(125);
  }
  return v;
}

static void write_file(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) die(path);
  ssize_t n = write(fd, text, strlen(text));
  if (n != (ssize_t)strlen(text)) die(path);
  close(fd);
}

static int count_arg(int argc, char **argv, int at, int width, const char *what) {
  if (at >= argc) {
    fprintf(stderr, "spritzer-userns: missing the number of %s\n", what);
    exit(125);
  }
  unsigned long n = number(argv[at], what);
  if (n > 64 || at + 1 + (long)n * width > argc) {
    fprintf(stderr, "spritzer-userns: %lu %s do not fit the arguments\n", n, what);
    exit(125);
  }
  return (int)n;
}

/*
 * Only stdin, stdout, stderr, bubblewrap's --info-fd (3) and --seccomp (4) descriptors go on to the sandbox: one that
 * spritzer itself inherited without close-on-exec (a supervisor's pipe, a log file, a test runner's channel) would
 * otherwise be open in every process of the sprite. close_range(2) marks the rest close-on-exec (Linux 5.11); on an
 * older kernel, one fcntl per possible descriptor.
 */
static void keep_only_sandbox_fds(void) {
  if (syscall(SYS_close_range, 5U, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
  long max = sysconf(_SC_OPEN_MAX);
  for (long fd = 5; fd < (max > 0 ? max : 1024); fd++) {
    int flags = fcntl((int)fd, F_GETFD);
    if (flags >= 0) fcntl((int)fd, F_SETFD, flags | FD_CLOEXEC);
  }
}

int main(int argc, char **argv) {
  if (argc < 8) {
    fprintf(stderr, "usage: spritzer-userns HOST_BASE COUNT INOTIFY_INSTANCES INOTIFY_WATCHES N [SRC DEST]xN M [LOWER UPPER WORK TARGET]xM -- COMMAND...\n");
    return 125;
  }
  unsigned long base = number(argv[1], "HOST_BASE"), count = number(argv[2], "COUNT");
  unsigned long instances = number(argv[3], "INOTIFY_INSTANCES"), watches = number(argv[4], "INOTIFY_WATCHES");
  if (base == 0 || count == 0 || base + count > 4294967295UL) {
    fprintf(stderr, "spritzer-userns: HOST_BASE must be > 0, COUNT > 0 and the range below 2^32\n");
    return 125;
  }
  int nidmaps = count_arg(argc, argv, 5, 2, "idmapped mounts");
  int idmaps = 6;
  int at = idmaps + 2 * nidmaps;
  int noverlays = count_arg(argc, argv, at, 4, "overlays");
  int overlays = at + 1;
  int sep = overlays + 4 * noverlays;
  if (sep >= argc - 1 || strcmp(argv[sep], "--") != 0) {
    fprintf(stderr, "spritzer-userns: expected -- COMMAND after the overlays\n");
    return 125;
  }

  int go[2], done[2];
  if (pipe2(go, O_CLOEXEC) || pipe2(done, O_CLOEXEC)) die("pipe");
  pid_t child = fork();
  if (child < 0) die("fork");
  if (child == 0) {
    char c = 0;
    close(go[1]);
    close(done[0]);
    if (setgroups(0, NULL) || setresgid(base, base, base) || setresuid(base, base, base)) die("becoming the sprite's host uid");
    if (unshare(CLONE_NEWUSER)) die("unshare(CLONE_NEWUSER)");
    if (write(done[1], &c, 1) != 1) die("signalling the parent");
    if (read(go[0], &c, 1) != 1) _exit(125); /* the parent failed; it reports why */
    char text[32];
    if (instances) {
      snprintf(text, sizeof text, "%lu", instances);
      write_file("/proc/sys/user/max_inotify_instances", text);
    }
    if (watches) {
      snprintf(text, sizeof text, "%lu", watches);
      write_file("/proc/sys/user/max_inotify_watches", text);
    }
    write_file("/proc/sys/user/max_user_namespaces", "0");
    _exit(0);
  }
  close(go[0]);
  close(done[1]);
  char c;
  if (read(done[0], &c, 1) != 1) {
    int st;
    waitpid(child, &st, 0);
    fprintf(stderr, "spritzer-userns: the namespace's child failed\n");
    return 125;
  }
  char path[64], map[96];
  snprintf(map, sizeof map, "0 %lu %lu\n", base, count);
  snprintf(path, sizeof path, "/proc/%d/uid_map", (int)child);
  write_file(path, map);
  snprintf(path, sizeof path, "/proc/%d/gid_map", (int)child);
  write_file(path, map);
  snprintf(path, sizeof path, "/proc/%d/ns/user", (int)child);
  int userns = open(path, O_RDONLY | O_CLOEXEC);
  if (userns < 0) die(path);
  if (write(go[1], &c, 1) != 1) die("signalling the child");
  int st;
  if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "spritzer-userns: setting the namespace's inotify limits failed\n");
    return 125;
  }

  for (int i = 0; i < nidmaps; i++) {
    const char *src = argv[idmaps + 2 * i], *dest = argv[idmaps + 2 * i + 1];
    int tree = (int)syscall(SYS_open_tree, AT_FDCWD, src, OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
    if (tree < 0) die(src);
    struct mount_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.attr_set = MOUNT_ATTR_IDMAP | MOUNT_ATTR_RDONLY | MOUNT_ATTR_NODEV;
    attr.userns_fd = (uint64_t)userns;
    if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH, &attr, sizeof attr)) die("mount_setattr(MOUNT_ATTR_IDMAP)");
    if (syscall(SYS_move_mount, tree, "", AT_FDCWD, dest, MOVE_MOUNT_F_EMPTY_PATH)) die(dest);
    close(tree);
  }
  for (int i = 0; i < noverlays; i++) {
    char **o = argv + overlays + 4 * i;
    char opts[4096];
    int n = snprintf(opts, sizeof opts, "lowerdir=%s,upperdir=%s,workdir=%s", o[0], o[1], o[2]);
    if (n < 0 || n >= (int)sizeof opts) {
      fprintf(stderr, "spritzer-userns: overlay options too long\n");
      return 125;
    }
    if (mount("overlay", o[3], "overlay", 0, opts)) die(o[3]);
  }
  if (setns(userns, CLONE_NEWUSER)) die("setns(CLONE_NEWUSER)");
  if (setgroups(0, NULL) || setresgid(0, 0, 0) || setresuid(0, 0, 0)) die("becoming root of the sprite's namespace");
  close(userns);
  keep_only_sandbox_fds();
  execvp(argv[sep + 1], argv + sep + 1);
  die(argv[sep + 1]);
  return 125;
}
