/*
 * keyboard.c - PS/2 keyboard: scan code set 1 to ASCII.
 *
 * The 8042 controller raises IRQ 1 for each byte; we read it from port
 * 0x60. In set 1 a key press sends its make code and the release the same
 * code with bit 7 set; 0xE0 prefixes the extended keys (arrows etc.),
 * which we ignore. Only letters, digits, punctuation, space, enter,
 * backspace and shift are handled: enough to type at a shell.
 */
#include "keyboard.h"
#include "ioapic.h"
#include "kernel/debug/console.h"
#include "kernel/arch/trap.h"
#include "kernel/arch/x86.h"

#define KBD_DATA    0x60
#define KBD_STATUS  0x64	/* bit 0: output buffer full */
#define SC_LSHIFT   0x2A
#define SC_RSHIFT   0x36
#define SC_RELEASE  0x80
#define SC_EXTENDED 0xE0

static const char normal[0x3A] = {
	0, 27, '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=', '\b',
	'\t', 'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']', '\n',
	0, 'a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`',
	0, '\\', 'z', 'x', 'c', 'v', 'b', 'n', 'm', ',', '.', '/', 0,
	'*', 0, ' ',
};

static const char shifted[0x3A] = {
	0, 27, '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+', '\b',
	'\t', 'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}', '\n',
	0, 'A', 'S', 'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~',
	0, '|', 'Z', 'X', 'C', 'V', 'B', 'N', 'M', '<', '>', '?', 0,
	'*', 0, ' ',
};

static bool shift, extended;

void keyboard_intr(struct trapframe *tf)
{
	(void)tf;
	while (inb(KBD_STATUS) & 1) {
		uint8_t sc = inb(KBD_DATA);
		if (sc == SC_EXTENDED) {
			extended = true;
			continue;
		}
		bool was_extended = extended;
		extended = false;
		uint8_t key = sc & ~SC_RELEASE;
		if (key == SC_LSHIFT || key == SC_RSHIFT) {
			shift = !(sc & SC_RELEASE);
			continue;
		}
		if ((sc & SC_RELEASE) || was_extended || key >= sizeof(normal))
			continue;
		char c = shift ? shifted[key] : normal[key];
		if (c)
			console_input_byte(c);
	}
}

void keyboard_init(uint32_t apic_id)
{
	while (inb(KBD_STATUS) & 1)	/* drop whatever was typed before boot */
		(void)inb(KBD_DATA);
	ioapic_route_isa(KBD_IRQ, T_IRQ0 + KBD_IRQ, apic_id);
}
