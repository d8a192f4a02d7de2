/*
 * wl_fork.c - workloads for the process-log tests (process_logs.sh):
 *
 *   wl_fork fork DIR     the parent writes 3 blocks to DIR/parent.dat and
 *                        1 block to DIR/shared.dat, forks; the child writes
 *                        5 blocks to DIR/child.dat and 2 blocks to
 *                        shared.dat through the descriptor it inherited;
 *                        the parent waits, then writes 1 more block to
 *                        parent.dat. A block is 4096 bytes.
 *   wl_fork threads DIR  8 threads each write 16 blocks of 4096 bytes to
 *                        DIR/t<i>.dat and 16 to DIR/all.dat (pwrite at
 *                        their own offsets).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BLOCK 4096

static char block[BLOCK];
static const char *dir;

static int open_in(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror(path);
        exit(1);
    }
    return fd;
}

static void put(int fd, int n)
{
    for (int i = 0; i < n; i++)
        if (write(fd, block, BLOCK) != BLOCK) {
            perror("write");
            exit(1);
        }
}

static int do_fork(void)
{
    int p = open_in("parent.dat"), s = open_in("shared.dat");
    put(p, 3);
    put(s, 1);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        int c = open_in("child.dat");
        put(c, 5);
        put(s, 2);
        close(c);
        close(s);
        exit(0);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return 1;
    put(p, 1);
    close(p);
    close(s);
    return 0;
}

static int all_fd;

static void *writer(void *arg)
{
    int i = (int)(long)arg;
    char name[32];
    snprintf(name, sizeof name, "t%d.dat", i);
    int fd = open_in(name);
    for (int k = 0; k < 16; k++) {
        put(fd, 1);
        off_t off = ((off_t)i * 16 + k) * BLOCK;
        if (pwrite(all_fd, block, BLOCK, off) != BLOCK) {
            perror("pwrite");
            exit(1);
        }
    }
    close(fd);
    return NULL;
}

static int do_threads(void)
{
    all_fd = open_in("all.dat");
    pthread_t t[8];
    for (long i = 0; i < 8; i++)
        if (pthread_create(&t[i], NULL, writer, (void *)i) != 0)
            return 1;
    for (int i = 0; i < 8; i++)
        pthread_join(t[i], NULL);
    close(all_fd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: wl_fork fork|threads DIR\n");
        return 2;
    }
    dir = argv[2];
    memset(block, 'x', sizeof block);
    if (strcmp(argv[1], "fork") == 0)
        return do_fork();
    if (strcmp(argv[1], "threads") == 0)
        return do_threads();
    return 2;
}
