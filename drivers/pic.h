/*
 * pic.h - the legacy 8259 interrupt controllers, switched off.
 */
#ifndef DRIVERS_PIC_H
#define DRIVERS_PIC_H

/* Move the 8259s' vectors off the CPU exceptions, then mask every line:
 * from here on the IOAPIC and the local APICs deliver all interrupts. */
void pic_init(void);

#endif
