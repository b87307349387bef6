/*
 * dev.h - the character devices of /dev (kernel/fs/dev.c).
 */
#ifndef KERNEL_DEV_H
#define KERNEL_DEV_H

#include <stdbool.h>
#include <stdint.h>

struct file;

/* Boot, from initrd_init: put /dev/null ... /dev/console in the tree. */
void dev_init(void);
int dev_read(struct file *f, void *ubuf, uint32_t n);
int dev_write(struct file *f, const void *ubuf, uint32_t n);
int dev_ioctl(struct file *f, uint32_t req, void *uarg);
bool dev_seekable(const struct file *f);
/* /dev/zero maps: as anonymous memory (Linux's mmap_zero); no other device does. */
bool dev_is_zero(const struct file *f);

#endif
