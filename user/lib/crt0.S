/*
 * crt0.S - where every user program starts.
 *
 * The kernel (Linux or ours) jumps to _start with esp pointing at argc, then
 * argv[] (NULL-terminated), envp[] (NULL-terminated), then the auxiliary
 * vector.  We pass argc, argv and envp to __libc_start (crt0_main.c in
 * libc.c), which sets `environ`, calls main and exits with its result.
 */
	.text
	.globl _start
	.type _start, @function
_start:
	xorl	%ebp, %ebp		/* end of the frame-pointer chain */
	movl	(%esp), %eax		/* argc */
	leal	4(%esp), %ecx		/* argv */
	leal	8(%esp,%eax,4), %edx	/* envp = argv + argc + 1 */
	andl	$-16, %esp		/* the i386 ABI wants 16-byte alignment */
	subl	$4, %esp		/* ... at the call, after 3 pushes */
	pushl	%edx
	pushl	%ecx
	pushl	%eax
	call	__libc_start
	hlt				/* not reached: __libc_start exits */
	.size _start, . - _start

	.section .note.GNU-stack, "", @progbits
