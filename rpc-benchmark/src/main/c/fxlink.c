/*
 * fxlink: netem in user space, for kernels built without sch_netem (CONFIG_NET_SCH_NETEM unset: "tc qdisc add ...
 * netem" answers "Specified qdisc kind is unknown"). netem.sh uses it only there.
 *
 *   fxlink CONTROL_FILE TUN_NAME...
 *
 * Opens one TUN device per name (IFF_TUN | IFF_NO_PI, not persistent: they vanish when this process ends), prints
 * "READY" and then forwards IPv4 packets between them: a packet to 10.77.0.(10+i) goes out of the i-th device. That
 * makes it the switch between the network namespaces netem.sh moves the devices into. Each device is one node's
 * link, and every packet crosses two links (its sender's and its receiver's), each adding its one-way delay, a
 * uniform jitter of +- its jitter, and its loss, as netem on both ends of a veth would. Packets between two nodes
 * never overtake each other (netem's default with a pfifo child and rate, rather than its reordering jitter).
 *
 * On SIGHUP it reads CONTROL_FILE again; one line per node, in the order of the names:
 *   DELAY_US JITTER_US LOSS_PPM DOWN CUT_MASK
 * DOWN 1 drops every packet to and from the node (a blackhole: dropped, not refused); bit j of CUT_MASK drops the
 * packets between it and node j only (a partition of two nodes). Missing lines leave a node as it was.
 * SIGTERM or SIGINT ends it; its devices go with it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES 32
#define MTU 1500

typedef struct {
    long delay_us, jitter_us, loss_ppm;
    int down;
    unsigned long cut_mask;
} link_t;

typedef struct {
    uint64_t due_ns;
    uint64_t seq;
    int to;
    int len;
    unsigned char *data;
} packet_t;

static int fds[MAX_NODES];
static int nodes;
static link_t links[MAX_NODES];
static uint64_t last_due[MAX_NODES][MAX_NODES];
static packet_t *heap;
static size_t heap_len, heap_cap;
static uint64_t seq;
static volatile sig_atomic_t reload, stop;
static const char *control;
static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t) t.tv_sec * 1000000000ULL + (uint64_t) t.tv_nsec;
}

static uint64_t next_random(void) { /* xorshift64* */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ULL;
}

static int earlier(const packet_t *a, const packet_t *b) {
    return a->due_ns < b->due_ns || (a->due_ns == b->due_ns && a->seq < b->seq);
}

static void heap_push(packet_t p) {
    if (heap_len == heap_cap) {
        heap_cap = heap_cap ? heap_cap * 2 : 4096;
        heap = realloc(heap, heap_cap * sizeof(packet_t));
        if (!heap) { perror("realloc"); exit(1); }
    }
    size_t i = heap_len++;
    heap[i] = p;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!earlier(&heap[i], &heap[parent])) break;
        packet_t t = heap[i]; heap[i] = heap[parent]; heap[parent] = t;
        i = parent;
    }
}

static packet_t heap_pop(void) {
    packet_t top = heap[0];
    heap[0] = heap[--heap_len];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < heap_len && earlier(&heap[l], &heap[m])) m = l;
        if (r < heap_len && earlier(&heap[r], &heap[m])) m = r;
        if (m == i) break;
        packet_t t = heap[i]; heap[i] = heap[m]; heap[m] = t;
        i = m;
    }
    return top;
}

static void read_control(void) {
    FILE *f = fopen(control, "r");
    if (!f) return;
    for (int i = 0; i < nodes; i++) {
        link_t l;
        if (fscanf(f, "%ld %ld %ld %d %lu", &l.delay_us, &l.jitter_us, &l.loss_ppm, &l.down, &l.cut_mask) != 5) break;
        links[i] = l;
    }
    fclose(f);
}

static void on_signal(int sig) {
    if (sig == SIGHUP) reload = 1; else stop = 1;
}

static int open_tun(const char *name) {
    int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) { perror("/dev/net/tun"); exit(1); }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
    strncpy(ifr.ifr_name, name, IFNAMSIZ - 1);
    if (ioctl(fd, TUNSETIFF, &ifr) < 0) { perror(name); exit(1); }
    return fd;
}

static long jittered(const link_t *l) {
    if (l->jitter_us <= 0) return l->delay_us;
    long d = l->delay_us + (long) (next_random() % (uint64_t) (2 * l->jitter_us + 1)) - l->jitter_us;
    return d < 0 ? 0 : d;
}

static int lost(const link_t *l) {
    return l->loss_ppm > 0 && (long) (next_random() % 1000000ULL) < l->loss_ppm;
}

/* Where a packet from node `from` goes, or -1 to drop it; its delay in *delay_ns. */
static int route(int from, const unsigned char *p, int len, uint64_t *delay_ns) {
    if (len < 20 || (p[0] >> 4) != 4) return -1; /* IPv4 only */
    if (p[16] != 10 || p[17] != 77 || p[18] != 0) return -1;
    int to = p[19] - 10;
    if (to < 0 || to >= nodes || to == from) return -1;
    const link_t *a = &links[from], *b = &links[to];
    if (a->down || b->down || (a->cut_mask >> to & 1) || (b->cut_mask >> from & 1)) return -1;
    if (lost(a) || lost(b)) return -1;
    *delay_ns = (uint64_t) (jittered(a) + jittered(b)) * 1000ULL;
    return to;
}

static void arm(int timer) {
    struct itimerspec when;
    memset(&when, 0, sizeof when);
    if (heap_len > 0) {
        uint64_t due = heap[0].due_ns;
        when.it_value.tv_sec = (time_t) (due / 1000000000ULL);
        when.it_value.tv_nsec = (long) (due % 1000000000ULL);
        if (when.it_value.tv_sec == 0 && when.it_value.tv_nsec == 0) when.it_value.tv_nsec = 1;
    }
    timerfd_settime(timer, TFD_TIMER_ABSTIME, &when, NULL);
}

static void release_due(void) {
    uint64_t now = now_ns();
    while (heap_len > 0 && heap[0].due_ns <= now) {
        packet_t p = heap_pop();
        if (write(fds[p.to], p.data, (size_t) p.len) < 0 && errno != EAGAIN) { /* a full device drops, as a NIC */ }
        free(p.data);
    }
}

int main(int argc, char **argv) {
    if (argc < 3 || argc - 2 > MAX_NODES) {
        fprintf(stderr, "usage: fxlink CONTROL_FILE TUN_NAME... (at most %d)\n", MAX_NODES);
        return 2;
    }
    control = argv[1];
    nodes = argc - 2;
    rng ^= (uint64_t) getpid() << 17 ^ now_ns();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGHUP, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < nodes; i++) {
        fds[i] = open_tun(argv[i + 2]);
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t) i};
        epoll_ctl(ep, EPOLL_CTL_ADD, fds[i], &ev);
    }
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    struct epoll_event tev = {.events = EPOLLIN, .data.u32 = MAX_NODES};
    epoll_ctl(ep, EPOLL_CTL_ADD, timer, &tev);
    read_control();
    printf("READY\n");
    fflush(stdout);
    unsigned char buf[65536];
    struct epoll_event events[MAX_NODES + 1];
    while (!stop) {
        if (reload) { reload = 0; read_control(); }
        int n = epoll_wait(ep, events, MAX_NODES + 1, 1000);
        if (n < 0 && errno != EINTR) { perror("epoll_wait"); return 1; }
        for (int e = 0; e < n; e++) {
            uint32_t i = events[e].data.u32;
            if (i == MAX_NODES) {
                uint64_t expirations;
                if (read(timer, &expirations, sizeof expirations) < 0) { /* spurious */ }
                continue;
            }
            for (int k = 0; k < 64; k++) {
                ssize_t len = read(fds[i], buf, sizeof buf);
                if (len <= 0) break;
                uint64_t delay;
                int to = route((int) i, buf, (int) len, &delay);
                if (to < 0) continue;
                if (delay == 0 && heap_len == 0) {
                    if (write(fds[to], buf, (size_t) len) < 0) { /* dropped */ }
                    continue;
                }
                uint64_t due = now_ns() + delay;
                if (due < last_due[i][to]) due = last_due[i][to]; /* no overtaking between two nodes */
                last_due[i][to] = due;
                unsigned char *copy = malloc((size_t) len);
                if (!copy) continue;
                memcpy(copy, buf, (size_t) len);
                heap_push((packet_t) {due, seq++, to, (int) len, copy});
            }
        }
        release_due();
        arm(timer);
    }
    return 0;
}
