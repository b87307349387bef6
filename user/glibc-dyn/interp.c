/*
 * interp - never runs: built twice by make with an interpreter that is
 * not there (interp_missing) or is not ELF (interp_notelf), for
 * user/glibc-dyn/dynamic.c's execve checks.
 */
int main(void)
{
	return 0;
}
