/*
 * bootparam.c - the command line, split into key=value pairs.
 *
 * Both QEMU (-kernel) and GRUB put the path of the kernel image first on
 * the Multiboot command line, so a first word without '=' is skipped.
 * Any other word that is not key=value is reported and ignored.
 */
#include <stdint.h>
#include "bootparam.h"
#include "kernel/debug/printk.h"
#include "lib/string.h"

static char cmdline[BOOTPARAM_LINE_MAX];	/* the parameters as given */
static char words[BOOTPARAM_LINE_MAX];		/* the same, cut into pieces */

static struct param {
	const char *key, *value;
	bool known;
} params[BOOTPARAM_MAX];
static int nparams;

bool parse_int(const char *s, int *out)
{
	bool neg = false;
	int64_t v = 0;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (*s - '0');
		if (v > INT32_MAX + (int64_t)neg)
			return false;
	}
	*out = (int)(neg ? -v : v);
	return true;
}

static void add_word(char *w)
{
	char *eq = strchr(w, '=');
	if (!eq || eq == w) {
		pr_warn("bootparam: \"%s\" is not key=value, ignored\n", w);
		return;
	}
	if (nparams == BOOTPARAM_MAX) {
		pr_warn("bootparam: too many parameters, \"%s\" ignored\n", w);
		return;
	}
	*eq = 0;
	params[nparams].key = w;
	params[nparams].value = eq + 1;
	params[nparams].known = false;
	nparams++;
}

void bootparam_parse(const char *line)
{
	bool first = true;

	nparams = 0;
	while (*line == ' ')
		line++;
	/* Skip the image path (the first word, when it has no '='). */
	const char *sp = strchr(line, ' ');
	size_t firstlen = sp ? (size_t)(sp - line) : strlen(line);
	for (size_t i = 0; i < firstlen; i++)
		if (line[i] == '=')
			first = false;
	if (first)
		line += firstlen;
	while (*line == ' ')
		line++;
	strlcpy(cmdline, line, sizeof(cmdline));
	strlcpy(words, line, sizeof(words));

	for (char *p = words; *p;) {
		while (*p == ' ')
			*p++ = 0;
		if (!*p)
			break;
		char *w = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = 0;
		add_word(w);
	}
}

static struct param *find(const char *key)
{
	struct param *found = NULL;
	for (int i = 0; i < nparams; i++)	/* the last one given wins */
		if (strcmp(params[i].key, key) == 0)
			found = &params[i];
	for (int i = 0; i < nparams; i++)
		if (strcmp(params[i].key, key) == 0)
			params[i].known = true;
	return found;
}

const char *bootparam_str(const char *key)
{
	struct param *p = find(key);
	return p ? p->value : NULL;
}

int bootparam_int(const char *key, int dflt, int min, int max)
{
	struct param *p = find(key);
	int v;

	if (!p)
		return dflt;
	if (!parse_int(p->value, &v) || v < min || v > max) {
		pr_warn("bootparam: %s: bad value \"%s\" (want %d..%d), keeping %d\n",
			key, p->value, min, max, dflt);
		return dflt;
	}
	return v;
}

void bootparam_report_unknown(void)
{
	for (int i = 0; i < nparams; i++)
		if (!params[i].known)
			pr_warn("bootparam: unknown key \"%s\" ignored\n", params[i].key);
}

const char *bootparam_cmdline(void)
{
	return cmdline;
}
