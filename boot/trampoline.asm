; trampoline.asm - where each application processor (AP) starts.
;
; A STARTUP IPI starts an AP in 16-bit real mode at physical page
; vector << 12 (Intel SDM vol. 3 §8.4.4.1). kernel/arch/smp.c copies the bytes
; between trampoline_start and trampoline_end to TRAMPOLINE_PA, fills in
; trampoline_params, and sends the IPI. The code below goes
;   real mode -> protected mode (a flat GDT of its own) -> paging with the
;   kernel's page directory (4 MiB pages: CR4.PSE) -> ap_main(cpu) on the
;   kernel stack smp.c allocated for this AP.
; Before anything else the AP claims the start-up: it swaps its own APIC
; ID (CPUID leaf 1, EBX[31:24]) in p_claim for CLAIMED. An AP that finds
; another ID there (the boot CPU gave up on it and may have freed its
; stack, or is starting another AP) halts in real mode instead: a vCPU
; that a busy host runs seconds late must find nothing to break.
; The copy runs at TRAMPOLINE_PA, not where the linker put it, so every
; address is written as ABS(label). Paging is turned on while running at
; TRAMPOLINE_PA, which works because the kernel's page directory still
; identity-maps low memory while the APs boot.

TRAMPOLINE_PA	equ 0x8000		; must match kernel/arch/smp.c
CLAIMED		equ 0xfffffffe		; must match kernel/arch/smp.c
%define ABS(x)	(TRAMPOLINE_PA + (x) - trampoline_start)

section .rodata				; data to the kernel: it is only copied
global trampoline_start, trampoline_end, trampoline_params

bits 16
trampoline_start:
	cli
	cld
	xor ax, ax
	mov ds, ax
	mov eax, 1
	cpuid
	shr ebx, 24			; our initial APIC ID
	mov eax, ebx
	mov ecx, CLAIMED
	lock cmpxchg [ABS(p_claim)], ecx
	jne park			; not ours, or no longer wanted
	lgdt [ABS(gdt_desc)]
	mov eax, cr0
	or eax, 1			; CR0.PE
	mov cr0, eax
	jmp dword 0x08:ABS(protected)	; reload CS: now 32-bit code

park:
	cli
	hlt
	jmp park

bits 32
protected:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor ax, ax
	mov fs, ax
	mov gs, ax

	mov eax, cr4
	or eax, 0x10			; CR4.PSE: 4 MiB pages
	mov cr4, eax
	mov eax, [ABS(p_cr3)]
	mov cr3, eax
	mov eax, cr0
	and eax, ~0x60000000		; INIT left caching off: clear CR0.CD, CR0.NW
	or eax, 0x80010000		; CR0.PG | CR0.WP, as boot/entry.asm
	mov cr0, eax

	mov esp, [ABS(p_stack)]
	xor ebp, ebp			; backtraces stop here
	push dword [ABS(p_cpu)]		; ap_main(struct cpu *c)
	push dword 0			; ap_main never returns
	jmp [ABS(p_entry)]

align 8
gdt:
	dq 0
	dq 0x00CF9A000000FFFF		; 0x08: code, base 0, limit 4 GiB
	dq 0x00CF92000000FFFF		; 0x10: data
gdt_desc:
	dw gdt_desc - gdt - 1
	dd ABS(gdt)

; Filled in by kernel/arch/smp.c (struct trampoline_params) before each AP starts.
align 4
trampoline_params:
p_cr3:		dd 0			; physical address of the page directory
p_stack:	dd 0			; top of this AP's kernel stack
p_entry:	dd 0			; ap_main
p_cpu:		dd 0			; its struct cpu
p_claim:	dd 0			; the APIC ID wanted; CLAIMED once it came
trampoline_end:
