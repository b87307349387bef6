/*
 * acpi.c - the RSDP, RSDT/XSDT, MADT and FADT (ACPI 6.x, chapter 5).
 *
 * We only read tables, once, at boot. Every table starts with the same
 * 36-byte header (§5.2.6) whose bytes sum to zero; a table that fails its
 * checksum is ignored. Tables live in RAM the loader reported as reserved;
 * ioremap() hands back the direct-map address when they are in low memory.
 */
#include "acpi.h"
#include "kernel/debug/printk.h"
#include "lib/string.h"
#include "kernel/mm/vm.h"
#include "kernel/arch/x86.h"

struct sdt_header {
	char sig[4];
	uint32_t length;
	uint8_t revision, checksum;
	char oem[6], oem_table[8];
	uint32_t oem_revision, creator, creator_revision;
} __attribute__((packed));

/* §5.2.5.3: the Root System Description Pointer. */
struct rsdp {
	char sig[8];			/* "RSD PTR " */
	uint8_t checksum;		/* over the first 20 bytes */
	char oem[6];
	uint8_t revision;		/* 0: ACPI 1.0 (RSDT only); 2+: XSDT too */
	uint32_t rsdt_pa;
	uint32_t length;
	uint64_t xsdt_pa;
	uint8_t ext_checksum;		/* over all `length` bytes */
} __attribute__((packed));

/* MADT entry types (§5.2.12). */
enum { MADT_LAPIC = 0, MADT_IOAPIC = 1, MADT_OVERRIDE = 2, MADT_LAPIC_ADDR = 5,
       MADT_X2APIC = 9 };

uint32_t acpi_lapic_pa = 0xFEE00000;
int acpi_ncpus;
uint8_t acpi_cpu_apic_ids[MAX_CPUS];
int acpi_nioapics;
struct acpi_ioapic acpi_ioapics[ACPI_MAX_IOAPICS];
struct acpi_isa_irq acpi_isa_irqs[16];

static uint16_t pm1a_cnt, pm1b_cnt;	/* FADT: PM1 control ports */
static uint16_t slp_typa, slp_typb;	/* \_S5 sleep types from the DSDT */

static bool checksum_ok(const void *p, uint32_t len)
{
	uint8_t sum = 0;
	for (uint32_t i = 0; i < len; i++)
		sum += ((const uint8_t *)p)[i];
	return sum == 0;
}

static const struct rsdp *rsdp_scan(uint32_t pa, uint32_t len)
{
	for (uint32_t p = pa; p < pa + len; p += 16) {
		const struct rsdp *r = P2V(p);
		if (memcmp(r->sig, "RSD PTR ", 8) == 0 && checksum_ok(r, 20))
			return r;
	}
	return NULL;
}

/* §5.2.5.1: the first KiB of the EBDA, then the BIOS area 0xE0000-0xFFFFF. */
static const struct rsdp *rsdp_find(void)
{
	uint32_t ebda = (uint32_t)*(uint16_t *)P2V(0x40E) << 4;
	const struct rsdp *r = NULL;
	if (ebda >= 0x80000 && ebda < 0xA0000)
		r = rsdp_scan(ebda, 1024);
	return r ? r : rsdp_scan(0xE0000, 0x20000);
}

static const struct sdt_header *table_map(uint64_t pa)
{
	if (pa == 0 || pa >= 0xFFFFF000u)
		return NULL;
	const struct sdt_header *h = ioremap((uint32_t)pa, sizeof(*h));
	h = ioremap((uint32_t)pa, h->length);
	return checksum_ok(h, h->length) ? h : NULL;
}

static void madt_parse(const struct sdt_header *h)
{
	const uint8_t *p = (const uint8_t *)h + sizeof(*h);
	const uint8_t *end = (const uint8_t *)h + h->length;

	acpi_lapic_pa = *(const uint32_t *)p;
	for (p += 8; p + 2 <= end && p[1] >= 2; p += p[1]) {
		switch (p[0]) {
		case MADT_LAPIC:
			/* flags bit 0: enabled; a disabled entry is a hot-plug slot. */
			if (!(*(const uint32_t *)(p + 4) & 1))
				break;
			if (acpi_ncpus == MAX_CPUS) {
				pr_warn("acpi: more than %d CPUs, ignoring apic %u\n", MAX_CPUS, p[3]);
				break;
			}
			acpi_cpu_apic_ids[acpi_ncpus++] = p[3];
			break;
		case MADT_IOAPIC:
			if (acpi_nioapics == ACPI_MAX_IOAPICS)
				break;
			acpi_ioapics[acpi_nioapics++] = (struct acpi_ioapic){
				p[2], *(const uint32_t *)(p + 4), *(const uint32_t *)(p + 8) };
			break;
		case MADT_OVERRIDE: {
			/* bus 0 (ISA), source IRQ, GSI, MPS INTI flags (§5.2.12.5):
			 * polarity bits 0-1 (3 = active low), trigger bits 2-3 (3 = level). */
			uint8_t irq = p[3];
			uint16_t flags = *(const uint16_t *)(p + 8);
			if (irq < 16)
				acpi_isa_irqs[irq] = (struct acpi_isa_irq){
					*(const uint32_t *)(p + 4), (flags & 3) == 3, ((flags >> 2) & 3) == 3 };
			break;
		}
		case MADT_LAPIC_ADDR:
			acpi_lapic_pa = (uint32_t)*(const uint64_t *)(p + 4);
			break;
		case MADT_X2APIC:
			pr_warn("acpi: x2APIC CPU %u ignored (xAPIC only)\n", *(const uint32_t *)(p + 4));
			break;
		}
	}
}

/*
 * \_S5 in the DSDT's AML is `Name(_S5_, Package(){a, b, ...})`:
 * NameOp 0x08, "_S5_", PackageOp 0x12, PkgLength, NumElements, then each
 * element as BytePrefix 0x0A + byte, or ZeroOp 0x00 / OneOp 0x01 (§20.2).
 * Searching for the name instead of interpreting AML is the usual shortcut.
 */
static int aml_small_int(const uint8_t **p)
{
	uint8_t op = *(*p)++;
	if (op == 0x0A)
		return *(*p)++;
	return op <= 1 ? op : -1;
}

static void dsdt_find_s5(const struct sdt_header *dsdt)
{
	const uint8_t *p = (const uint8_t *)dsdt + sizeof(*dsdt);
	const uint8_t *end = (const uint8_t *)dsdt + dsdt->length - 8;
	for (; p < end; p++) {
		if (memcmp(p, "_S5_", 4) != 0 || p[-1] != 0x08 || p[4] != 0x12)
			continue;
		p += 5;
		p += 1 + (*p >> 6);		/* PkgLength: bits 6-7 = extra bytes */
		p++;				/* NumElements */
		int a = aml_small_int(&p), b = aml_small_int(&p);
		if (a >= 0 && b >= 0) {
			slp_typa = a;
			slp_typb = b;
		}
		return;
	}
}

/* §4.8.3.2.1 PM1 control: SLP_TYP in bits 10-12, SLP_EN is bit 13.
 * pm1a_cnt is 0 until fadt_parse() finds the port (never, without ACPI). */
void acpi_power_off(void)
{
	if (!pm1a_cnt)
		return;
	outw(pm1a_cnt, (slp_typa << 10) | (1 << 13));
	if (pm1b_cnt)
		outw(pm1b_cnt, (slp_typb << 10) | (1 << 13));
}

static void fadt_parse(const struct sdt_header *h)
{
	const uint8_t *f = (const uint8_t *)h;
	uint32_t dsdt_pa = *(const uint32_t *)(f + 40);
	pm1a_cnt = *(const uint32_t *)(f + 64);
	pm1b_cnt = *(const uint32_t *)(f + 68);
	const struct sdt_header *dsdt = table_map(dsdt_pa);
	if (dsdt && memcmp(dsdt->sig, "DSDT", 4) == 0)
		dsdt_find_s5(dsdt);
}

/* No MADT: smp.c runs the boot CPU alone (acpi_ncpus == 0), and the
 * IOAPIC is assumed at the PC's default address. */
static void default_ioapic(void)
{
	acpi_nioapics = 1;
	acpi_ioapics[0] = (struct acpi_ioapic){ 0, 0xFEC00000, 0 };
}

bool acpi_init(void)
{
	for (int i = 0; i < 16; i++)
		acpi_isa_irqs[i] = (struct acpi_isa_irq){ i, false, false };

	const struct rsdp *r = rsdp_find();
	if (!r) {
		pr_warn("acpi: no RSDP; assuming one CPU and default IOAPIC\n");
		default_ioapic();
		return false;
	}
	bool xsdt = r->revision >= 2 && r->xsdt_pa && checksum_ok(r, r->length);
	const struct sdt_header *root = table_map(xsdt ? r->xsdt_pa : r->rsdt_pa);
	if (!root) {
		pr_warn("acpi: bad %s\n", xsdt ? "XSDT" : "RSDT");
		default_ioapic();
		return false;
	}
	int width = xsdt ? 8 : 4;
	int n = (root->length - sizeof(*root)) / width;
	const uint8_t *entries = (const uint8_t *)root + sizeof(*root);
	for (int i = 0; i < n; i++) {
		uint64_t pa = xsdt ? *(const uint64_t *)(entries + 8 * i)
				   : *(const uint32_t *)(entries + 4 * i);
		const struct sdt_header *h = table_map(pa);
		if (h && memcmp(h->sig, "APIC", 4) == 0)
			madt_parse(h);
		else if (h && memcmp(h->sig, "FACP", 4) == 0)
			fadt_parse(h);
	}
	if (acpi_nioapics == 0)
		default_ioapic();
	printk("acpi: %s, %d CPUs, %d IOAPICs, lapic at 0x%x\n",
	       xsdt ? "XSDT" : "RSDT", acpi_ncpus, acpi_nioapics, acpi_lapic_pa);
	return true;
}
