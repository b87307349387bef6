; trapentry.asm - every way into the kernel: exceptions, interrupts, int 0x80.
;
; Each of the 256 vectors has a tiny stub that pushes a dummy error code
; (unless the CPU pushed a real one) and the vector number, then joins
; alltraps, which saves the rest of the registers as a struct trapframe
; (kernel/trap.h), switches to kernel segments and the per-CPU %fs, and
; calls trap(tf). trapret undoes it and irets.

%define KDATA_SEL  0x10
%define PERCPU_SEL 0x30

; Vectors where the CPU pushes an error code itself.
%macro VECTOR 1
vector%1:
%if %1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30
%else
	push dword 0
%endif
	push dword %1
	jmp alltraps
%endmacro

section .text
%assign i 0
%rep 256
VECTOR i
%assign i i + 1
%endrep

extern trap
global alltraps
alltraps:
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
	push esp		; struct trapframe *
	call trap
	add esp, 4
global trapret
trapret:
	popad
	pop gs
	pop fs
	pop es
	pop ds
	add esp, 8		; vector number and error code
	iret

section .rodata
global trap_vectors
trap_vectors:
%assign i 0
%rep 256
	dd vector %+ i
%assign i i + 1
%endrep
