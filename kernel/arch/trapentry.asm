; trapentry.asm - every way into the kernel: exceptions, interrupts, int 0x80.
;
; Each of the 256 vectors has a tiny stub that pushes a dummy error code
; (unless the CPU pushed a real one) and the vector number, then joins
; alltraps, which saves the rest of the registers as a struct trapframe
; (kernel/arch/trap.h), switches to kernel segments and the per-CPU %fs, and
; calls trap(tf). trapret undoes it and irets.
;
; int 0x80 saves the same frame but calls syscall(tf) (kernel/syscall.c)
; directly: a system call needs none of trap()'s sorting, and it is the
; path every program takes most often (docs/bench.md, getpid).

%define KDATA_SEL  0x10
%define PERCPU_SEL 0x48	; SEG_PERCPU << 3 (kernel/arch/gdt.h)
%define T_IRET     31	; kernel/arch/trap.h

; Vectors where the CPU pushes an error code itself.
%macro VECTOR 1
vector%1:
%if %1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30
%else
	push dword 0
%endif
	push dword %1
%if %1 == 0x80
	jmp syscall_entry
%else
	jmp alltraps
%endif
%endmacro

; The rest of struct trapframe, below what the stub pushed; then kernel
; segments and the per-CPU %fs.
%macro SAVE_TRAPFRAME 0
	push ds
	push es
	push fs
	push gs
	pushad
	cld			; a user may have set DF: C code (rep movs/stos) needs it clear
	mov ax, KDATA_SEL
	mov ds, ax
	mov es, ax
	mov ax, PERCPU_SEL
	mov fs, ax
%endmacro

section .text
%assign i 0
%rep 256
VECTOR i
%assign i i + 1
%endrep

extern trap
extern syscall
global alltraps
alltraps:
	SAVE_TRAPFRAME
	push esp		; struct trapframe *
	call trap
	add esp, 4
	jmp trapret

global syscall_entry
syscall_entry:
	SAVE_TRAPFRAME
	push esp		; struct trapframe *
	call syscall
	add esp, 4
; Each load of a user selector below may fault: the user chose it (a TLS
; slot emptied or made read-only since). trap.c's return_fixup() knows
; these five instructions, as Linux's exception table knows its own: a
; data segment that will not load is popped again as the null selector;
; an iret that faults resumes at iret_fault.
global trapret, trapret_pop_gs, trapret_pop_fs, trapret_pop_es, trapret_pop_ds
global trapret_iret, iret_fault
trapret:
	popad
trapret_pop_gs:
	pop gs
trapret_pop_fs:
	pop fs
trapret_pop_es:
	pop es
trapret_pop_ds:
	pop ds
	add esp, 8		; vector number and error code
trapret_iret:
	iret

; iret would not take the user's frame (its %ss above all). esp points at
; that frame's eip, cs, eflags, esp, ss, and the registers hold the user's
; values again: push the rest of a trap frame around them, as the CPU and
; a vector stub would, and trap() sees a fault from user mode (T_IRET:
; SIGILL, Linux's iret_error).
iret_fault:
	push dword 0		; error code
	push dword T_IRET
	jmp alltraps

section .rodata
global trap_vectors
trap_vectors:
%assign i 0
%rep 256
	dd vector %+ i
%assign i i + 1
%endrep
