// An LD_PRELOAD library that makes file system calls fail, for the fault
// tests of the gsort binary (fault_test.cpp). Rules come from GSORT_FAULT,
// separated by ';':
//
//   OP:WHAT[:after=N][:every=K][:path=SUBSTRING]
//
//   OP      read (read, pread), write (write, pwrite), fsync (fsync,
//           fdatasync), rename (rename; path matches the new name),
//           fallocate (fallocate: the reservation of a mapped output)
//   WHAT    ENOSPC, EIO, EINTR, EDQUOT, EFBIG, EOPNOTSUPP (a file system
//           without the call): fail with that errno;
//           short: do the call with half the bytes (at least one)
//   after   the first N matching calls go through untouched (default 0)
//   every   after that, every K-th matching call is hit (default 1: all)
//   path    only descriptors whose file name (/proc/self/fd) contains it
//
// Only regular files and directories match: standard streams on a pipe or
// a terminal never do, so gsort's messages always get out. Each hit appends
// "OP WHAT NAME" as a line to the file GSORT_FAULT_LOG, when set, so a test
// can tell that its fault was injected at all.
//
//   GSORT_FAULT='write:ENOSPC:after=3:path=/tmp/x' LD_PRELOAD=./libgsort_fault_shim.so gsort ...
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

enum op { OP_READ, OP_WRITE, OP_FSYNC, OP_RENAME, OP_FALLOCATE, OP_COUNT };
static const char* const kOpNames[] = {"read", "write", "fsync", "rename", "fallocate"};

struct rule {
  enum op op;
  int err;  // 0: a short transfer
  unsigned long after, every;
  char path[PATH_MAX];
  unsigned long calls;  // matching calls so far (atomic)
};

enum { kMostRules = 8 };
static struct rule rules[kMostRules];
static int rule_count;
static pthread_once_t parsed = PTHREAD_ONCE_INIT;

static ssize_t (*real_read)(int, void*, size_t);
static ssize_t (*real_pread)(int, void*, size_t, off_t);
static ssize_t (*real_write)(int, const void*, size_t);
static ssize_t (*real_pwrite)(int, const void*, size_t, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_rename)(const char*, const char*);
static int (*real_fallocate)(int, int, off_t, off_t);

static void die(const char* what, const char* text) {
  fprintf(stderr, "fault shim: %s '%s'\n", what, text);
  abort();
}

static int parse_errno(const char* s) {
  static const struct { const char* name; int value; } known[] = {
      {"ENOSPC", ENOSPC}, {"EIO", EIO}, {"EINTR", EINTR}, {"EDQUOT", EDQUOT}, {"EFBIG", EFBIG},
      {"EOPNOTSUPP", EOPNOTSUPP}, {"short", 0}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i) {
    if (strcmp(s, known[i].name) == 0) return known[i].value;
  }
  die("unknown fault", s);
  return -1;
}

static void parse_rule(char* text) {
  if (rule_count == kMostRules) die("too many rules at", text);
  struct rule* r = &rules[rule_count++];
  r->every = 1;
  char* save = NULL;
  const char* op = strtok_r(text, ":", &save);
  const char* what = op ? strtok_r(NULL, ":", &save) : NULL;
  if (op == NULL || what == NULL) die("a rule needs OP:WHAT, not", text);
  int found = 0;
  for (int i = 0; i < OP_COUNT; ++i) {
    if (strcmp(op, kOpNames[i]) == 0) r->op = (enum op)i, found = 1;
  }
  if (!found) die("unknown operation", op);
  r->err = parse_errno(what);
  for (char* opt; (opt = strtok_r(NULL, ":", &save)) != NULL;) {
    if (strncmp(opt, "after=", 6) == 0) {
      r->after = strtoul(opt + 6, NULL, 10);
    } else if (strncmp(opt, "every=", 6) == 0) {
      r->every = strtoul(opt + 6, NULL, 10);
      if (r->every == 0) die("every=0 in", opt);
    } else if (strncmp(opt, "path=", 5) == 0) {
      snprintf(r->path, sizeof r->path, "%s", opt + 5);
    } else {
      die("unknown option", opt);
    }
  }
}

static void parse_rules(void) {
  real_read = dlsym(RTLD_NEXT, "read");
  real_pread = dlsym(RTLD_NEXT, "pread");
  real_write = dlsym(RTLD_NEXT, "write");
  real_pwrite = dlsym(RTLD_NEXT, "pwrite");
  real_fsync = dlsym(RTLD_NEXT, "fsync");
  real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
  real_rename = dlsym(RTLD_NEXT, "rename");
  real_fallocate = dlsym(RTLD_NEXT, "fallocate");
  const char* env = getenv("GSORT_FAULT");
  if (env == NULL) return;
  char* copy = strdup(env);
  char* save = NULL;
  for (char* text = strtok_r(copy, ";", &save); text != NULL; text = strtok_r(NULL, ";", &save)) parse_rule(text);
  free(copy);
}

// The file name behind fd, for rules with path= and for the log; "" for
// anything other than a regular file or a directory.
static void fd_name(int fd, char* name, size_t size) {
  struct stat st;
  name[0] = '\0';
  if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) return;
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const ssize_t n = readlink(link, name, size - 1);
  name[n > 0 ? n : 0] = '\0';
}

static void log_hit(const struct rule* r, const char* name) {
  const char* log = getenv("GSORT_FAULT_LOG");
  if (log == NULL) return;
  char line[PATH_MAX + 64];
  const int n = snprintf(line, sizeof line, "%s %s %s\n", kOpNames[r->op], r->err ? strerrorname_np(r->err) : "short",
                         name);
  // Raw system calls: this library's own write() would look at its rules.
  const int fd = (int)syscall(SYS_openat, AT_FDCWD, log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  syscall(SYS_write, fd, line, (size_t)n);
  syscall(SYS_close, fd);
}

// The rule that hits this call, or NULL. `name` is the file's name (for
// rename, the new path).
static const struct rule* hit(enum op op, const char* name) {
  pthread_once(&parsed, parse_rules);
  if (name[0] == '\0') return NULL;
  for (int i = 0; i < rule_count; ++i) {
    struct rule* r = &rules[i];
    if (r->op != op || (r->path[0] != '\0' && strstr(name, r->path) == NULL)) continue;
    const unsigned long call = __atomic_fetch_add(&r->calls, 1, __ATOMIC_RELAXED);
    if (call < r->after || (call - r->after) % r->every != r->every - 1) continue;
    log_hit(r, name);
    return r;
  }
  return NULL;
}

static const struct rule* hit_fd(enum op op, int fd) {
  pthread_once(&parsed, parse_rules);
  if (rule_count == 0) return NULL;
  char name[PATH_MAX];
  fd_name(fd, name, sizeof name);
  return hit(op, name);
}

static size_t shortened(size_t n) { return n > 1 ? n / 2 : n; }

ssize_t read(int fd, void* buf, size_t n) {
  const struct rule* r = hit_fd(OP_READ, fd);
  if (r && r->err) return errno = r->err, -1;
  return real_read(fd, buf, r ? shortened(n) : n);
}

ssize_t pread(int fd, void* buf, size_t n, off_t offset) {
  const struct rule* r = hit_fd(OP_READ, fd);
  if (r && r->err) return errno = r->err, -1;
  return real_pread(fd, buf, r ? shortened(n) : n, offset);
}
ssize_t pread64(int fd, void* buf, size_t n, off_t offset) __attribute__((alias("pread")));

ssize_t write(int fd, const void* buf, size_t n) {
  const struct rule* r = hit_fd(OP_WRITE, fd);
  if (r && r->err) return errno = r->err, -1;
  return real_write(fd, buf, r ? shortened(n) : n);
}

ssize_t pwrite(int fd, const void* buf, size_t n, off_t offset) {
  const struct rule* r = hit_fd(OP_WRITE, fd);
  if (r && r->err) return errno = r->err, -1;
  return real_pwrite(fd, buf, r ? shortened(n) : n, offset);
}
ssize_t pwrite64(int fd, const void* buf, size_t n, off_t offset) __attribute__((alias("pwrite")));

int fsync(int fd) {
  const struct rule* r = hit_fd(OP_FSYNC, fd);
  if (r) return errno = r->err ? r->err : EIO, -1;
  return real_fsync(fd);
}

int fdatasync(int fd) {
  const struct rule* r = hit_fd(OP_FSYNC, fd);
  if (r) return errno = r->err ? r->err : EIO, -1;
  return real_fdatasync(fd);
}

int rename(const char* from, const char* to) {
  pthread_once(&parsed, parse_rules);
  const struct rule* r = rule_count ? hit(OP_RENAME, to) : NULL;
  if (r) return errno = r->err ? r->err : EIO, -1;
  return real_rename(from, to);
}

int fallocate(int fd, int mode, off_t offset, off_t len) {
  const struct rule* r = hit_fd(OP_FALLOCATE, fd);
  if (r) return errno = r->err ? r->err : EIO, -1;
  return real_fallocate(fd, mode, offset, len);
}
int fallocate64(int fd, int mode, off_t offset, off_t len) __attribute__((alias("fallocate")));
