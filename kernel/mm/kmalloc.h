/*
 * kmalloc.h - the kernel heap.
 */
#ifndef KERNEL_KMALLOC_H
#define KERNEL_KMALLOC_H

#include <stddef.h>

void *kmalloc(size_t size);	/* 16-byte aligned; NULL when memory is out */
void *kzalloc(size_t size);	/* the same, zeroed */
void kfree(void *p);		/* NULL is fine; a bad or double free panics */
/* The memory kmalloc(size) takes: its size class's block, or whole pages. */
size_t kmalloc_block_size(size_t size);
/* Give back the heap's pages whose blocks are all free (sys_free_frames). */
void kmalloc_shrink(void);
#ifdef HOST_TEST
void kmalloc_forget_all(void);	/* tests/host: fresh memory for each test */
#endif

#endif
