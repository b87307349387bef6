; entry.asm - the first instructions the kernel runs (Multiboot 1).
;
; The loader (QEMU -kernel or GRUB) enters at _start in 32-bit protected
; mode with paging off, eax = 0x2BADB002 and ebx = the physical address of
; the Multiboot information. We load our own flat GDT, turn on paging with
; a boot page directory that maps physical 0..896 MiB at 0xC0000000 using
; 4 MiB pages (and the first 8 MiB at 0 too, so the next instruction after
; enabling paging still exists), then jump to the higher half and call
; kmain(magic, mbi). kernel/mm/vm.c later builds on this same page directory.

MB_MAGIC	equ 0x1BADB002
MB_FLAGS	equ 0x3			; bit 0: page-align modules, bit 1: memory map
KERNEL_OFFSET	equ 0xC0000000
DIRECT_MAP_MB	equ 896			; must match DIRECT_MAP_SIZE in kernel/mm/vm.h
PDE_PS_RW_P	equ 0x83		; 4 MiB page, writable, present

section .multiboot
align 4
	dd MB_MAGIC
	dd MB_FLAGS
	dd -(MB_MAGIC + MB_FLAGS)

section .boot
global kernel_entry
extern kmain
kernel_entry:
	cld				; C code relies on DF = 0; the loader promises nothing
	; Our own flat GDT at once: the loader's is undefined (Multiboot 3.2).
	lgdt [boot_gdt_desc - KERNEL_OFFSET]
	jmp 0x08:.flat
.flat:
	mov cx, 0x10
	mov ds, cx
	mov es, cx
	mov ss, cx
	xor cx, cx
	mov fs, cx
	mov gs, cx

	mov ecx, cr4
	or ecx, 0x10			; CR4.PSE: allow 4 MiB pages
	mov cr4, ecx
	mov ecx, boot_pgdir - KERNEL_OFFSET
	mov cr3, ecx
	mov ecx, cr0
	or ecx, 0x80010000		; CR0.PG | CR0.WP
	mov cr0, ecx

	mov ecx, higher_half
	jmp ecx

section .text
higher_half:
	mov esp, boot_stack_top
	xor ebp, ebp			; backtraces stop here
	push ebx			; Multiboot info (physical)
	push eax			; Multiboot magic
	call kmain
.hang:	cli
	hlt
	jmp .hang

section .data
align 8
boot_gdt:
	dq 0
	dq 0x00CF9A000000FFFF		; 0x08: code, base 0, limit 4 GiB
	dq 0x00CF92000000FFFF		; 0x10: data
boot_gdt_desc:
	dw boot_gdt_desc - boot_gdt - 1
	dd boot_gdt - KERNEL_OFFSET

; The boot page directory, also the kernel's page directory for good
; (kernel/mm/vm.c: kernel_pgdir). Entries 0..1 identity-map the first 8 MiB
; (removed once the APs are up); entries 768.. map the direct map.
align 4096
global boot_pgdir
boot_pgdir:
	dd 0x00000000 | PDE_PS_RW_P
	dd 0x00400000 | PDE_PS_RW_P
	times (768 - 2) dd 0
%assign i 0
%rep DIRECT_MAP_MB / 4
	dd (i << 22) | PDE_PS_RW_P
%assign i i + 1
%endrep
	times (1024 - 768 - DIRECT_MAP_MB / 4) dd 0

section .bss
align 16
global boot_stack_bottom
boot_stack_bottom:
	resb 16384
global boot_stack_top
boot_stack_top:
