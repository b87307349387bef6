/*
 * vga.c - writes characters to the VGA text buffer at physical 0xB8000
 * (reached through the kernel's direct map) and scrolls when full.
 * The hardware cursor follows the text.
 */
#include <stdint.h>
#include "vga.h"
#include "kernel/arch/x86.h"
#include "kernel/mm/vm.h"

#define COLS 80
#define ROWS 25
#define ATTR 0x0700		/* light grey on black */

static volatile uint16_t *screen;
static int row, col;

static void move_cursor(void)
{
	uint16_t pos = row * COLS + col;
	outb(0x3D4, 14);
	outb(0x3D5, pos >> 8);
	outb(0x3D4, 15);
	outb(0x3D5, pos & 0xFF);
}

void vga_init(void)
{
	screen = P2V(0xB8000);
	for (int i = 0; i < COLS * ROWS; i++)
		screen[i] = ATTR | ' ';
	row = col = 0;
	move_cursor();
}

static void scroll(void)
{
	for (int i = 0; i < COLS * (ROWS - 1); i++)
		screen[i] = screen[i + COLS];
	for (int i = COLS * (ROWS - 1); i < COLS * ROWS; i++)
		screen[i] = ATTR | ' ';
	row = ROWS - 1;
}

void vga_putc(char c)
{
	if (!screen)
		return;
	if (c == '\n') {
		col = 0;
		row++;
	} else if (c == '\r') {
		col = 0;
	} else if (c == '\b') {
		if (col > 0)
			screen[row * COLS + --col] = ATTR | ' ';
	} else if (c == '\t') {
		col = (col + 8) & ~7;
	} else {
		screen[row * COLS + col++] = ATTR | (uint8_t)c;
	}
	if (col >= COLS) {
		col = 0;
		row++;
	}
	if (row >= ROWS)
		scroll();
	move_cursor();
}
