; switch.asm - swtch(old, new): the context switch.
;
; Saves the callee-saved registers of the running task on its own kernel
; stack, stores that stack pointer in *old, loads new as the stack pointer
; and pops the other task's registers: the "ret" then returns into
; whatever function that task was in when it called swtch (schedule(), or
; proc_first_return for a task that has never run). The layout is
; struct context in kernel/task/proc.h.

section .text
global swtch
swtch:
	mov eax, [esp + 4]	; struct context **old
	mov edx, [esp + 8]	; struct context *new
	push ebp
	push ebx
	push esi
	push edi
	mov [eax], esp
	mov esp, edx
	pop edi
	pop esi
	pop ebx
	pop ebp
	ret
