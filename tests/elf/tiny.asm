; tiny.asm - the code of the hand-built ELF programs that tests/elf/mkelf.py
; makes (the ELF loader's cases, docs/userland.md). Position-independent,
; so the same bytes run as ET_EXEC, as a PIE and as an interpreter.
;
; DELTA (given by mkelf.py): the data segment's address minus .here's.
; The data segment holds: +0 magic, +4 mode, +8 exit status on success;
; its file page continues with junk that must not show (bss starts at +12).
; Exit status 1: data wrong, 2: bss tail not zero, 3: bss page not
; writable, 4: a write to the text segment worked (mode 1), 5: the text
; segment's bytes past p_filesz are zero, not the file's (mode 2).
bits 32
	call .here
.here:	pop ebx
	lea esi, [ebx + DELTA]
	mov edi, 1
	cmp dword [esi], 0x600DDA7A
	jne .exit
	mov edi, 2
	cmp dword [esi + 12], 0
	jne .exit
	mov edi, 3
	mov dword [esi + 0x1000], 7
	cmp dword [esi + 0x1000], 7
	jne .exit
	mov dword [esi], 5
	mov eax, [esi + 4]
	cmp eax, 1
	jne .mode2
	mov dword [ebx], 0		; text: SIGSEGV where it is read-only
	mov edi, 4
	jmp .exit
.mode2:	cmp eax, 2
	jne .done
	mov edi, 5
	cmp dword [ebx + TEXTPAST], 0	; the file's byte past text's p_filesz
	je .exit
.done:	mov edi, [esi + 8]
.exit:	mov eax, 1			; exit(edi)
	mov ebx, edi
	int 0x80
