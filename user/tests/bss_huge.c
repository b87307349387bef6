/*
 * bss_huge - a program whose bss (2.75 GiB) is larger than the machine:
 * leak's exec_of_a_bss_larger_than_memory_is_enomem expects execve to
 * refuse it (ENOMEM) before it takes a single frame (issue 46). Should it
 * ever run, it touches its last byte and exits 0. (C allows no object of
 * 2 GiB or more on i386: the assembler reserves it.)
 */
__asm__(".pushsection .bss\n\t.balign 4096\n"
	"\t.skip 0xAFFFFFFF\n"
	"huge_bss_last:\n\t.skip 1\n"
	"\t.popsection");
extern char huge_bss_last[1];

int main(void)
{
	huge_bss_last[0] = 1;
	return 0;
}
