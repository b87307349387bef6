/*
 * sh - the shell students live in: bash's habits on a small scale.
 *
 *   sh            read commands from fd 0 (interactive on a terminal)
 *   sh -c LINE    run one line and exit with its status
 *   sh FILE [ARG...]  run the script FILE ($0 FILE, $1.. $9 and $# its
 *                 arguments); a "#!/bin/sh" file run by name comes here
 *
 * A line is a list of pipelines:  a | b | c ; d && e || f & g < FILE
 * with 'single' and "double" quotes, \ escapes, # comments and $?, $!, $$
 * and $NAME expanded just before each pipeline runs (so "false; echo $?"
 * prints 1), and POSIX sh's compound commands for scripting an
 * experiment: NAME=VALUE, for, while, until, if/elif/else, !, break,
 * continue, test/[ ]; a loop left open reads on ("> ").  What POSIX sh has
 * beyond that (case, functions, $( ), $(( )), heredocs, { }) is refused
 * by name, never misparsed.  Every stage of a pipeline is forked and
 * joined by a real pipe; the last stage's status is $?.  Output redirection
 * (> and >>) opens an existing file for writing: the initrd is read-only,
 * but /proc/sys/kernel's tunables take a write (echo 20 > ...).
 *
 * Job control, as bash does it: each pipeline is a job in its own process
 * group; a foreground job gets the terminal (tcsetpgrp) and the shell takes
 * it back when the job ends or stops (Ctrl-Z).  The shell ignores the
 * terminal's signals (SIGINT and SIGTSTP: caught, see init_interactive);
 * its children get the defaults back before exec.
 * jobs, fg, bg, kill %N, wait; "[1] 42" when a job starts in the background
 * and "[1]+  Done    spin 2" before the prompt once it has ended.
 *
 * On a terminal the line is read in non-canonical mode and edited here:
 * Backspace, Ctrl-U, Ctrl-W, Ctrl-C, Ctrl-D, and Up/Down through the last
 * 32 lines.  Where the terminal calls are missing (a pipe, or a kernel
 * without TCGETS) everything that needs them is skipped, and the rest works.
 *
 * Sections: limits and state; the terminal and line editor; the lexer and
 * parser (a tree of nodes); variables and expansion; the job table; waiting; running pipelines and lists;
 * builtins; main.  docs/userland.md (## sh) describes it for users.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "args.h"

#define LINE_LEN 256		/* a line: 255 characters and the NUL */
#define MAX_ARGS 32		/* words in one command */
#define MAX_STAGES 8		/* commands in one pipeline */
#define MAX_PIPES 16		/* pipelines in one line */
#define MAX_TOKENS LINE_LEN	/* every token is at least one character */
#define EXPAND_LEN 2048		/* one pipeline's words after expansion */
#define MAX_JOBS 32
#define HIST_MAX 32

#define STATUS_SYNTAX 2		/* a bad line, as bash */

static char bindir[128] = "/bin";
static int last_status;		/* $? */
static pid_t last_bg;		/* $!: 0 until something runs in the background */
static pid_t shell_pid;		/* $$ */
static int input_fd;		/* where lines come from: 0, or a script */
static char **script_argv;	/* a script's $0, $1, ...: its path, then its arguments */
static int script_argc;		/* $0 included */

/* interactive: prompts, job notices, status lines.  jobctl: process groups
 * and the terminal (off in a non-interactive shell and in a subshell). */
static bool interactive, jobctl;
static pid_t shell_pgid;
static struct termios shell_tmodes;	/* the terminal as we found it */
static bool have_tmodes;		/* tcgetattr worked: edit lines ourselves */
static volatile int caught;		/* SIGINT or SIGTSTP that reached us */
static bool interrupted;		/* Ctrl-C: drop the rest of the line */
static int line_no;			/* lines read: exit's stopped-jobs warning */

static void err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int err_count;		/* messages so far: the parser's "did it fail" */
static bool more_lines_ok;	/* a trial parse (read_more): count errors, say nothing */

/* Every message of the shell itself: "sh: ..." on stderr, one line. */
static void err(const char *fmt, ...)
{
	char buf[320];
	va_list ap;

	err_count++;
	if (more_lines_ok)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "sh: %s\n", buf);
}

static void out(const char *s, int n)
{
	while (n > 0) {
		int k = write(2, s, n);
		if (k <= 0)
			return;
		s += k;
		n -= k;
	}
}

static void outs(const char *s) { out(s, strlen(s)); }

/* ==== the terminal and the line editor ==================================== */

static char history[HIST_MAX][LINE_LEN];
static int hist_count;			/* lines ever added; entry k is 1-based */

static const char *hist_entry(int k)
{
	return history[(k - 1) % HIST_MAX];
}

static void history_add(const char *line)
{
	const char *p = line;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || (hist_count > 0 && strcmp(hist_entry(hist_count), line) == 0))
		return;		/* blank lines and repeats are not worth recalling */
	hist_count++;
	snprintf(history[(hist_count - 1) % HIST_MAX], LINE_LEN, "%s", line);
}

enum { LINE_EOF = -1, LINE_LONG = -2, LINE_INTR = -3 };

/* Without our own editing: the terminal's (or a pipe's) bytes up to '\n'. */
static int read_plain(char *buf)
{
	int n = 0, too_long = 0;
	char c;

	for (;;) {
		int r = read(input_fd, &c, 1);
		if (r < 0 && errno == EINTR) {
			int sig = caught;
			caught = 0;
			if (sig == SIGINT)
				return LINE_INTR;	/* Ctrl-C, canonical mode */
			continue;			/* Ctrl-Z: nothing to stop */
		}
		if (r != 1) {
			if (n == 0 && !too_long)
				return LINE_EOF;
			break;		/* a last line without '\n' */
		}
		if (c == '\n')
			break;
		if (n < LINE_LEN - 1)
			buf[n++] = c;
		else
			too_long = 1;
	}
	buf[n] = '\0';
	return too_long ? LINE_LONG : n;
}

struct editor {
	char *buf;
	int len;
	bool too_long;		/* typed past the end: refused at Enter */
	int hist_pos;		/* hist_count + 1: the new line */
	char pending[LINE_LEN];	/* the new line while walking the history */
};

/* Erase n characters at the end of the line, on screen too.  A UTF-8
 * character is one column but several bytes: its continuation bytes go
 * with it. */
static void rubout(struct editor *e, int n)
{
	while (n-- > 0 && e->len > 0) {
		while (e->len > 1 && (e->buf[e->len - 1] & 0xc0) == 0x80)
			e->len--;
		e->len--;
		outs("\b \b");
	}
}

/* How many characters Ctrl-W erases: trailing blanks, then one word. */
static int word_length(const struct editor *e)
{
	int i = e->len, n = 0;

	while (i > 0 && e->buf[i - 1] == ' ')
		i--, n++;
	while (i > 0 && e->buf[i - 1] != ' ') {
		if ((e->buf[i - 1] & 0xc0) != 0x80)
			n++;
		i--;
	}
	return n;
}

static void replace_line(struct editor *e, const char *text)
{
	rubout(e, e->len);
	snprintf(e->buf, LINE_LEN, "%s", text);
	e->len = strlen(e->buf);
	e->too_long = false;
	out(e->buf, e->len);
}

/* Up (older) or Down (newer) through the history. */
static void history_walk(struct editor *e, int dir)
{
	int oldest = hist_count > HIST_MAX ? hist_count - HIST_MAX + 1 : 1;
	int pos = e->hist_pos + dir;

	if (pos < oldest || pos > hist_count + 1)
		return;
	if (e->hist_pos == hist_count + 1) {
		e->buf[e->len] = '\0';
		snprintf(e->pending, LINE_LEN, "%s", e->buf);
	}
	e->hist_pos = pos;
	replace_line(e, pos == hist_count + 1 ? e->pending : hist_entry(pos));
}

/* One byte of the line being edited; a signal in between is no reason to
 * stop (our SIGINT arrives as a byte while ISIG is off). */
static int read_byte(char *c)
{
	int r;

	while ((r = read(0, c, 1)) < 0 && errno == EINTR)
		;
	return r;
}

/* After ESC: "[A" or "OA" (Up), "[B" (Down); other sequences (other
 * arrows, function keys: digits and ';' then a final letter or '~') are
 * read to their end and ignored. */
static void escape_sequence(struct editor *e)
{
	char c;

	if (read_byte(&c) != 1 || (c != '[' && c != 'O'))
		return;
	do {
		if (read_byte(&c) != 1)
			return;
	} while (c >= 0x30 && c <= 0x3f);
	if (c == 'A')
		history_walk(e, -1);
	else if (c == 'B')
		history_walk(e, +1);
}

/* One line in non-canonical mode, echoing and editing it ourselves. */
static int edit_line(char *buf)
{
	struct editor e = { .buf = buf, .hist_pos = hist_count + 1 };
	char c;

	for (;;) {
		if (read_byte(&c) != 1) {
			if (e.len > 0)
				break;
			return LINE_EOF;
		}
		switch (c) {
		case '\r': case '\n':
			goto done;		/* read_line echoes the newline */
		case 0x7f: case '\b':
			rubout(&e, 1);
			break;
		case 0x15:				/* Ctrl-U: kill the line */
			rubout(&e, e.len);
			e.too_long = false;
			break;
		case 0x17:				/* Ctrl-W: erase a word */
			rubout(&e, word_length(&e));
			break;
		case 0x03:				/* Ctrl-C: drop the line */
			outs("^C\n");
			return LINE_INTR;
		case 0x04:				/* Ctrl-D: end, on an empty line */
			if (e.len == 0 && !e.too_long)
				return LINE_EOF;
			break;
		case 0x1b:
			escape_sequence(&e);
			break;
		case '\t':
			c = ' ';			/* no completion: a blank */
			/* fall through */
		default:
			if ((unsigned char)c < 0x20)
				break;			/* other controls: ignored */
			if (e.len == LINE_LEN - 1) {
				e.too_long = true;	/* bell; said once, at Enter */
				outs("\a");
				break;
			}
			buf[e.len++] = c;
			out(&c, 1);
		}
	}
done:
	buf[e.len] = '\0';
	return e.too_long ? LINE_LONG : e.len;
}

/* The prompt, then a line: edited here on a terminal (ICANON, ECHO, ISIG
 * and IEXTEN off while it is typed, so Ctrl-C and Ctrl-Z reach us as
 * bytes), else plain.  The mode changes before the prompt appears, so that
 * what is typed once it is seen is not echoed by the terminal as well; the
 * terminal's own modes are back before the newline is echoed, so that a
 * Ctrl-C or Ctrl-Z typed once the line is seen to end is a signal. */
static int read_line(char *buf, const char *prompt)
{
	struct termios raw = shell_tmodes;
	int n;

	raw.c_lflag &= ~(ICANON | ECHO | ISIG | IEXTEN);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (!have_tmodes || tcsetattr(0, TCSADRAIN, &raw) < 0) {
		outs(prompt);
		return read_plain(buf);
	}
	outs(prompt);
	n = edit_line(buf);
	tcsetattr(0, TCSADRAIN, &shell_tmodes);
	if (n >= 0 || n == LINE_LONG)
		outs("\n");
	return n;
}

/* ==== the lexer and parser ================================================ */

/* Tokens; the operators are also what follows a pipeline (its `op`). */
enum { T_END, T_WORD, T_SEMI, T_AMP, T_AND, T_OR, T_PIPE, T_IN, T_OUT, T_APPEND, T_NL };
static const char *const op_text[] = {
	[T_END] = "newline", [T_SEMI] = ";", [T_AMP] = "&", [T_AND] = "&&",
	[T_OR] = "||", [T_PIPE] = "|", [T_IN] = "<", [T_OUT] = ">", [T_APPEND] = ">>",
	[T_NL] = "newline",
};

struct token {
	int type;
	char *word;		/* T_WORD: its raw text (quotes still in), NUL-ended */
	int start, end;		/* where it is in the line */
};

struct command {
	char *words[MAX_ARGS];	/* raw: expanded just before the pipeline runs */
	int nwords;
	char *in;		/* < FILE, raw; NULL: none */
	char *out;		/* > FILE or >> FILE, raw; NULL: none */
	bool append;		/* >> */
};

struct pipeline {
	struct command cmd[MAX_STAGES];
	int ncmds;
	int op;			/* what ends it: T_END, T_SEMI, T_AMP, T_AND, T_OR */
	int start, end;		/* its text in the line: the job's name */
};

static struct token tokens[MAX_TOKENS + 1];
static char raw_words[2 * LINE_LEN];	/* every word's raw text, NUL-ended */
static struct pipeline pipes[MAX_PIPES];
static int npipes;

static bool is_op_char(char c) { return c && strchr("|&;<>", c); }
static bool is_blank(char c) { return c == ' ' || c == '\t'; }

static bool is_name_char(char c, bool first);

/* "NAME}" follows a "${". */
static bool plain_braces(const char *p)
{
	const char *q = p;
	while (is_name_char(*q, q == p))
		q++;
	return q > p && *q == '}';
}

/*
 * What POSIX sh has and this shell has not, refused by name where the
 * lexer meets it (a misparse would run something else than was meant).
 * Returns true after the message.
 */
static bool unsupported_at(const char *p, bool in_quotes)
{
	const char *what = NULL;
	if (p[0] == '`')
		what = "`...` command substitution";
	else if (p[0] == '$' && p[1] == '(' && p[2] == '(')
		what = "$((...)) arithmetic";
	else if (p[0] == '$' && p[1] == '(')
		what = "$(...) command substitution";
	else if (p[0] == '$' && p[1] == '{' && !plain_braces(p + 2))
		what = "${...} other than ${NAME}";
	else if (!in_quotes && (p[0] == '(' || p[0] == ')'))
		what = "( ) subshells and name() functions";
	if (what)
		err("%s: not supported by this shell", what);
	return what != NULL;
}

/* One word's raw extent: up to an unquoted blank or operator.  Returns the
 * end, or NULL after reporting an unterminated quote or something this
 * shell does not do. */
static const char *scan_word(const char *p)
{
	while (*p && !is_blank(*p) && !is_op_char(*p) && *p != '\n') {
		if (unsupported_at(p, false))
			return NULL;
		if (*p == '\'' || *p == '"') {
			char q = *p++;
			while (*p && *p != q) {
				if (q == '"' && unsupported_at(p, true))
					return NULL;
				p += (q == '"' && *p == '\\' && p[1]) ? 2 : 1;
			}
			if (!*p) {
				err("syntax error: no closing %c", q);
				return NULL;
			}
		} else if (*p == '\\' && !p[1]) {
			err("syntax error: '\\' at the end of the line");
			return NULL;
		} else if (*p == '\\') {
			p++;
		}
		p++;
	}
	return p;
}

static int op_at(const char *p, int *len)
{
	static const struct { const char *s; int type; } ops[] = {
		{ "&&", T_AND }, { "||", T_OR }, { ">>", T_APPEND }, { "|", T_PIPE },
		{ "&", T_AMP }, { ";", T_SEMI }, { "<", T_IN }, { ">", T_OUT },
	};
	for (unsigned i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		*len = strlen(ops[i].s);
		if (strncmp(p, ops[i].s, *len) == 0)
			return ops[i].type;
	}
	return T_END;
}

/* Token i would start a command (the parser's reserved-word place). */
static bool command_start(int i)
{
	if (i == 0)
		return true;
	int t = tokens[i - 1].type;
	if (t != T_WORD)
		return t != T_IN && t != T_OUT && t != T_APPEND;
	static const char *const kw[] = { "then", "do", "else", "elif", "if", "while", "until", "!" };
	for (unsigned k = 0; k < sizeof(kw) / sizeof(kw[0]); k++)
		if (!strcmp(tokens[i - 1].word, kw[k]))
			return true;
	return false;
}

/* The line as tokens, ending with T_END; -1 after an error message. */
static int lex(const char *line)
{
	char *raw = raw_words;
	int n = 0;

	for (const char *p = line;;) {
		struct token *t = &tokens[n++];
		int len;

		while (is_blank(*p))
			p++;
		t->start = p - line;
		if (*p == '#')				/* a comment ends the line */
			while (*p && *p != '\n')
				p++;
		if (!*p) {
			t->type = T_END;
			t->end = t->start = p - line;
			return n;
		}
		if (*p == '\n') {			/* continuation lines: like ';' */
			t->type = T_NL;
			p++;
		} else if (p[0] == '<' && p[1] == '<') {
			err("<< here-documents: not supported by this shell");
			return -1;
		} else if (is_op_char(*p)) {
			t->type = op_at(p, &len);
			p += len;
		} else if (command_start(n - 1) && !strncmp(p, "case", 4) &&
			   (is_blank(p[4]) || !p[4])) {
			err("case ... esac: not supported by this shell (use if/elif)");
			return -1;
		} else {
			const char *end = scan_word(p);
			if (!end)
				return -1;
			t->type = T_WORD;
			t->word = raw;
			memcpy(raw, p, end - p);
			raw += end - p;
			*raw++ = '\0';
			p = end;
		}
		t->end = p - line;
	}
}

/* A command is missing where token i stands: say why, in one line. */
static int missing_command(int i)
{
	int prev = i > 0 ? tokens[i - 1].type : T_END;

	if (tokens[i].type == T_END && (prev == T_PIPE || prev == T_AND || prev == T_OR))
		err("syntax error: nothing after '%s'", op_text[prev]);
	else if (tokens[i].type == T_END)
		err("syntax error: a redirection needs a command");
	else
		err("syntax error near unexpected token '%s'", op_text[tokens[i].type]);
	return -1;
}

/* One command's words and redirections from token *i on. */
static int parse_command(struct command *c, int *i)
{
	c->nwords = 0;
	c->in = c->out = NULL;
	for (;;) {
		struct token *t = &tokens[*i];
		if (t->type == T_WORD) {
			if (c->nwords == MAX_ARGS) {
				err("too many words in one command (max %d)", MAX_ARGS);
				return -1;
			}
			c->words[c->nwords++] = t->word;
			(*i)++;
		} else if (t->type == T_IN || t->type == T_OUT || t->type == T_APPEND) {
			if (t[1].type != T_WORD) {
				err("syntax error: no file after '%s'", op_text[t->type]);
				return -1;
			}
			if (t->type == T_IN) {
				c->in = t[1].word;
			} else {
				c->out = t[1].word;
				c->append = t->type == T_APPEND;
			}
			*i += 2;
		} else {
			break;
		}
	}
	return c->nwords == 0 ? missing_command(*i) : 0;
}

/*
 * The grammar, POSIX sh's for what this shell has (XCU 2.10):
 *   list     := and_or ((';' | '&' | newline) and_or)* [';' | '&']
 *   and_or   := pipeline (('&&' | '||') pipeline)*
 *   pipeline := ['!'] command ('|' command)*
 *   command  := simple | if | while | until | for
 *   if       := 'if' list 'then' list ('elif' list 'then' list)* ['else' list] 'fi'
 *   while    := ('while' | 'until') list 'do' list 'done'
 *   for      := 'for' NAME ['in' WORD...] (';' | newline) 'do' list 'done'
 * Reserved words count only where a command starts, unquoted, as in POSIX
 * ("echo done" prints done).  The tree is nodes[]; a simple pipeline is
 * pipes[k], its words expanded each time it runs (so a loop sees $i anew).
 */
enum { N_PIPE, N_NOT, N_AND, N_OR, N_SEQ, N_BG, N_IF, N_WHILE, N_UNTIL, N_FOR };

struct node {
	int type;
	struct node *a, *b, *c;	/* the parts: see exec_node() */
	int pipe;		/* N_PIPE: its pipes[] index */
	char *var;		/* N_FOR: the name, and its words */
	char **words;
	int nwords;
	int start, end;		/* its text in the line: a background job's name */
};

#define MAX_NODES (2 * MAX_TOKENS)
static struct node nodes[MAX_NODES];
static int nnodes;
static char *for_words[MAX_TOKENS];
static int nfor_words;
static int pos;			/* the next token */
static bool incomplete;		/* the line ended inside if/while/for: read more */

static const char *const closers[] = { "then", "do", "done", "fi", "else", "elif", NULL };
static const char *const refused[][2] = {
	{ "case", "case ... esac" }, { "esac", "case ... esac" },
	{ "function", "functions" }, { "select", "select loops" },
	{ "{", "{ } command groups" }, { "}", "{ } command groups" },
	{ "[[", "[[ ]] (use [ ])" }, { "time", "the time keyword" },
};

static bool word_is(int i, const char *w)
{
	return tokens[i].type == T_WORD && strcmp(tokens[i].word, w) == 0;
}

static bool at_closer(void)
{
	for (int k = 0; closers[k]; k++)
		if (word_is(pos, closers[k]))
			return true;
	return false;
}

static void skip_newlines(void)
{
	while (tokens[pos].type == T_NL)
		pos++;
}

static struct node *new_node(int type, struct node *a, struct node *b, int first)
{
	if (nnodes == MAX_NODES) {
		err("the line is too complex (max %d parts)", MAX_NODES);
		return NULL;
	}
	struct node *n = &nodes[nnodes++];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->a = a;
	n->b = b;
	n->start = tokens[first].start;
	n->end = tokens[pos > first ? pos - 1 : first].end;
	return n;
}

/* The text ended inside if/while/for: where more lines can come (fd 0)
 * the caller reads on (with "> " on a terminal); else it is an error. */
static void unfinished(const char *fmt, const char *a, const char *b)
{
	incomplete = true;
	err(fmt, a, b);
}

/* A reserved word was needed at pos: at the end of the text that means
 * "more lines to come". */
static bool expect(const char *w, const char *after)
{
	if (word_is(pos, w)) {
		pos++;
		return true;
	}
	if (tokens[pos].type == T_END) {
		unfinished("syntax error: '%s' without '%s'", after, w);
	} else {
		err("syntax error near unexpected token '%s' (expecting '%s')",
		    tokens[pos].type == T_WORD ? tokens[pos].word : op_text[tokens[pos].type], w);
	}
	return false;
}

static struct node *parse_list(void);

/* A list where one must be: "while do" has none. */
static struct node *parse_body(const char *after)
{
	struct node *n = parse_list();
	if (!n && !incomplete && tokens[pos].type != T_END && at_closer())
		err("syntax error near unexpected token '%s' (empty '%s')", tokens[pos].word, after);
	else if (!n && tokens[pos].type == T_END && !incomplete)
		unfinished("syntax error: '%s' without its end", after, "");
	return n;
}

static struct node *parse_if(int first)
{
	struct node *n = new_node(N_IF, NULL, NULL, first);
	const char *kw = tokens[pos].word;	/* "if" or "elif" */
	pos++;
	if (!n || !(n->a = parse_body(kw)) || !expect("then", kw) ||
	    !(n->b = parse_body("then")))
		return NULL;
	if (word_is(pos, "elif"))
		return (n->c = parse_if(pos)) ? n : NULL;
	if (word_is(pos, "else")) {
		pos++;
		if (!(n->c = parse_body("else")))
			return NULL;
	}
	return expect("fi", "if") ? n : NULL;
}

static struct node *parse_while(int first)
{
	int type = word_is(pos, "while") ? N_WHILE : N_UNTIL;
	const char *kw = tokens[pos++].word;
	struct node *n = new_node(type, NULL, NULL, first);
	if (!n || !(n->a = parse_body(kw)) || !expect("do", kw) ||
	    !(n->b = parse_body("do")) || !expect("done", kw))
		return NULL;
	return n;
}

static struct node *parse_for(int first)
{
	struct node *n = new_node(N_FOR, NULL, NULL, first);
	pos++;
	if (!n)
		return NULL;
	if (tokens[pos].type != T_WORD || !is_name_char(tokens[pos].word[0], true)) {
		err("syntax error: 'for' needs a variable name");
		return NULL;
	}
	for (const char *c = tokens[pos].word; *c; c++)
		if (!is_name_char(*c, false)) {
			err("for: '%s': not a valid identifier", tokens[pos].word);
			return NULL;
		}
	n->var = tokens[pos++].word;
	n->words = &for_words[nfor_words];
	skip_newlines();
	if (word_is(pos, "in"))
		for (pos++; tokens[pos].type == T_WORD; pos++)
			for_words[nfor_words++] = tokens[pos].word, n->nwords++;
	if (tokens[pos].type == T_SEMI || tokens[pos].type == T_NL)
		pos++;
	skip_newlines();
	if (!expect("do", "for") || !(n->a = parse_body("do")) || !expect("done", "for"))
		return NULL;
	return n;
}

/* if, while, until, for at pos; NULL (after a message) if it is none. */
static struct node *parse_compound(bool *found)
{
	int first = pos;
	*found = true;
	if (word_is(pos, "if"))
		return parse_if(first);
	if (word_is(pos, "while") || word_is(pos, "until"))
		return parse_while(first);
	if (word_is(pos, "for"))
		return parse_for(first);
	*found = false;
	return NULL;
}

/* A word a command may not start with here: say so by name. */
static bool refused_word(void)
{
	for (unsigned k = 0; k < sizeof(refused) / sizeof(refused[0]); k++)
		if (word_is(pos, refused[k][0])) {
			err("%s: not supported by this shell", refused[k][1]);
			return true;
		}
	if (at_closer()) {
		err("syntax error near unexpected token '%s'", tokens[pos].word);
		return true;
	}
	return false;
}

static struct node *parse_pipeline(void)
{
	int first = pos;
	bool negate = word_is(pos, "!"), compound;
	struct node *n;

	if (negate)
		pos++;
	if (refused_word())
		return NULL;
	n = parse_compound(&compound);
	if (compound) {
		if (n && tokens[pos].type >= T_PIPE && tokens[pos].type <= T_APPEND) {
			err("'%s' after a compound command: not supported by this shell",
			    op_text[tokens[pos].type]);
			return NULL;
		}
	} else {
		struct pipeline *p = &pipes[npipes];
		if (npipes == MAX_PIPES) {
			err("too many commands in one line (max %d pipelines)", MAX_PIPES);
			return NULL;
		}
		p->ncmds = 0;
		p->start = tokens[pos].start;
		for (;;) {
			if (p->ncmds == MAX_STAGES) {
				err("too many commands in one pipeline (max %d)", MAX_STAGES);
				return NULL;
			}
			if (parse_command(&p->cmd[p->ncmds++], &pos) < 0)
				return NULL;
			if (tokens[pos].type != T_PIPE)
				break;
			pos++;
			if (word_is(pos, "if") || word_is(pos, "while") || word_is(pos, "for") ||
			    word_is(pos, "until")) {
				err("a pipe into '%s': not supported by this shell", tokens[pos].word);
				return NULL;
			}
		}
		p->end = tokens[pos - 1].end;
		n = new_node(N_PIPE, NULL, NULL, first);
		if (n)
			n->pipe = npipes++;
	}
	return n && negate ? new_node(N_NOT, n, NULL, first) : n;
}

static struct node *parse_and_or(void)
{
	int first = pos;
	struct node *n = parse_pipeline();

	while (n && (tokens[pos].type == T_AND || tokens[pos].type == T_OR)) {
		int type = tokens[pos++].type == T_AND ? N_AND : N_OR;
		skip_newlines();
		if (tokens[pos].type == T_END)
			return missing_command(pos), NULL;
		struct node *right = parse_pipeline();
		n = right ? new_node(type, n, right, first) : NULL;
	}
	return n;
}

/* Commands up to the end or a closing reserved word; NULL if none (or
 * after a message: then `incomplete` or an error is set). */
static struct node *parse_list(void)
{
	struct node *list = NULL;

	skip_newlines();
	while (tokens[pos].type != T_END && !at_closer()) {
		int first = pos;
		struct node *n = parse_and_or();
		if (!n)
			return NULL;
		if (tokens[pos].type == T_AMP) {
			pos++;
			n = new_node(N_BG, n, NULL, first);
			if (n)
				n->end = tokens[pos - 2].end;	/* the job's name: without the & */
		} else if (tokens[pos].type == T_SEMI || tokens[pos].type == T_NL) {
			pos++;
		} else if (tokens[pos].type != T_END && !at_closer()) {
			return missing_command(pos), NULL;
		}
		if (!n)
			return NULL;
		list = list ? new_node(N_SEQ, list, n, first) : n;
		if (!list)
			return NULL;
		skip_newlines();
	}
	return list;
}

static struct node *tree;	/* the parsed text, or NULL if empty */

/* The tokens as a tree; -1 after an error message (and `incomplete` if
 * more lines could complete it). */
static int parse(void)
{
	int errors = err_count;

	npipes = nnodes = nfor_words = pos = 0;
	incomplete = false;
	tree = parse_list();
	if (err_count != errors)
		return -1;
	if (tokens[pos].type != T_END) {
		err("syntax error near unexpected token '%s'", tokens[pos].word);
		return -1;
	}
	return 0;
}

/* ==== expansion =========================================================== */

static char expanded[EXPAND_LEN];
static char *exp_next;
static bool exp_full;

static void put(char c)
{
	if (exp_next < expanded + EXPAND_LEN)
		*exp_next++ = c;
	else
		exp_full = true;
}

static void put_str(const char *s)
{
	while (s && *s)
		put(*s++);
}

static bool is_name_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

/* ==== variables =========================================================== */

/* The shell's variables: the environment it was given (exported) and
 * those set with NAME=VALUE (exported only after `export NAME`). */
#define MAX_VARS 128
#define VAR_NAME_MAX 64

static struct var {
	char name[VAR_NAME_MAX];
	char *value;		/* malloc'd */
	bool exported;
} vars[MAX_VARS];

static struct var *var_find(const char *name, size_t len)
{
	for (int i = 0; i < MAX_VARS; i++)
		if (vars[i].value && strlen(vars[i].name) == len && !strncmp(vars[i].name, name, len))
			return &vars[i];
	return NULL;
}

static const char *var_get(const char *name)
{
	struct var *v = var_find(name, strlen(name));
	return v ? v->value : NULL;
}

/* "NAME=VALUE" (or name and value apart): 0, or -1 after a message. */
static int var_set(const char *name, size_t len, const char *value, bool export)
{
	struct var *v = var_find(name, len);
	char *copy = strdup(value);

	if (len >= VAR_NAME_MAX) {
		err("%.*s: variable name too long (max %d)", (int)len, name, VAR_NAME_MAX - 1);
		free(copy);
		return -1;
	}
	for (int i = 0; !v && i < MAX_VARS; i++)
		if (!vars[i].value) {
			v = &vars[i];
			memcpy(v->name, name, len);
			v->name[len] = 0;
			v->exported = false;
		}
	if (!v || !copy) {
		err("%.*s: no room for another variable (max %d)", (int)len, name, MAX_VARS);
		free(copy);
		return -1;
	}
	free(v->value);
	v->value = copy;
	v->exported |= export;
	return 0;
}

/* NAME=... at the start of a raw word: the name's length, else 0. */
static size_t assignment_name(const char *raw)
{
	size_t n = 0;
	while (is_name_char(raw[n], n == 0))
		n++;
	return n && raw[n] == '=' ? n : 0;
}

/* The environment we were given, as exported variables. Entries that are
 * not names we can hold (too long, not a shell name, no room left) are
 * left out without a word: they are the caller's, not errors of ours. */
static void vars_import(void)
{
	int room = MAX_VARS - 16;	/* keep some for the user's own */
	for (char **e = environ; e && *e && room > 0; e++) {
		const char *eq = strchr(*e, '=');
		if (eq && eq > *e && eq - *e < VAR_NAME_MAX &&
		    assignment_name(*e) == (size_t)(eq - *e) && var_set(*e, eq - *e, eq + 1, true) == 0)
			room--;
	}
}

/* A child's environment: the exported variables, then its own NAME=VALUE
 * words (which win). In the child, after fork: static is fine. */
static char **child_environ(char **assign, int nassign)
{
	static char *env[MAX_VARS + MAX_ARGS + 1];
	static char buf[EXPAND_LEN * 2];
	char *b = buf;
	int n = 0;

	for (int i = 0; i < MAX_VARS; i++) {
		struct var *v = &vars[i];
		bool overridden = false;
		if (!v->value || !v->exported)
			continue;
		for (int k = 0; k < nassign; k++)
			overridden |= assignment_name(assign[k]) == strlen(v->name) &&
				      !strncmp(assign[k], v->name, strlen(v->name));
		int len = snprintf(b, buf + sizeof(buf) - b, "%s=%s", v->name, v->value);
		if (overridden || len >= buf + sizeof(buf) - b)
			continue;
		env[n++] = b;
		b += len + 1;
	}
	for (int k = 0; k < nassign; k++)
		env[n++] = assign[k];
	env[n] = NULL;
	return env;
}

/* $?, $!, $$, $NAME or ${NAME} at p (the '$'); returns the last character
 * used.  A '$' before anything else is just a '$'. */
static const char *dollar(const char *p)
{
	char num[16], name[64];
	int n = 0;

	if (p[1] == '?' || p[1] == '!' || p[1] == '$') {
		int v = p[1] == '?' ? last_status : p[1] == '!' ? last_bg : shell_pid;
		if (p[1] != '!' || last_bg)
			snprintf(num, sizeof(num), "%d", v), put_str(num);
		return p + 1;
	}
	if ((p[1] >= '0' && p[1] <= '9') || p[1] == '#') {	/* $0..$9, $#: a script's */
		int i = p[1] - '0';
		if (p[1] == '#')
			snprintf(num, sizeof(num), "%d", script_argc > 0 ? script_argc - 1 : 0), put_str(num);
		else if (i < script_argc)
			put_str(script_argv[i]);
		else if (i == 0)
			put_str("sh");
		return p + 1;
	}
	if (p[1] == '{') {		/* ${NAME}; ${NAME:-x} and the like are refused by the lexer */
		const char *q = p + 2;
		while (is_name_char(*q, q == p + 2) && n < (int)sizeof(name) - 1)
			name[n++] = *q++;
		name[n] = '\0';
		put_str(var_get(name));
		return q;		/* the '}' */
	}
	if (!is_name_char(p[1], true)) {
		put('$');
		return p;
	}
	while (is_name_char(p[1], false)) {
		if (n < (int)sizeof(name) - 1)
			name[n++] = p[1];
		p++;
	}
	name[n] = '\0';
	put_str(var_get(name));		/* unset: nothing */
	return p;
}

/* A raw word with its quotes removed and $ expanded (the lexer has checked
 * that every quote closes).  The result is not split at blanks. */
static char *expand(const char *raw)
{
	char *word = exp_next;

	for (const char *p = raw; *p; p++) {
		if (*p == '\'') {
			while (*++p != '\'')
				put(*p);
		} else if (*p == '"') {
			for (p++; *p != '"'; p++) {
				if (*p == '\\' && strchr("$\"\\", p[1]))
					put(*++p);
				else if (*p == '$')
					p = dollar(p);
				else
					put(*p);
			}
		} else if (*p == '\\') {
			put(*++p);
		} else if (*p == '$') {
			p = dollar(p);
		} else {
			put(*p);
		}
	}
	put('\0');
	return word;
}

/* A command's argv (and its < file) after expansion; its leading
 * NAME=VALUE words (POSIX: for its environment only) apart. */
struct argv {
	char *word[MAX_ARGS + 1];
	char **argv;		/* word + nassign */
	int argc, nassign;
	char *in, *out;
	bool append;
};

static int expand_pipeline(const struct pipeline *p, struct argv *a)
{
	exp_next = expanded;
	exp_full = false;
	for (int s = 0; s < p->ncmds; s++) {
		const struct command *c = &p->cmd[s];
		a[s].nassign = 0;
		for (int w = 0; w < c->nwords; w++) {
			a[s].word[w] = expand(c->words[w]);
			if (a[s].nassign == w && assignment_name(c->words[w]))
				a[s].nassign++;
		}
		a[s].word[c->nwords] = NULL;
		a[s].argv = a[s].word + a[s].nassign;
		a[s].argc = c->nwords - a[s].nassign;
		a[s].in = c->in ? expand(c->in) : NULL;
		a[s].out = c->out ? expand(c->out) : NULL;
		a[s].append = c->append;
	}
	if (exp_full) {
		err("the words are too long after expansion (max %d bytes)", EXPAND_LEN);
		return -1;
	}
	return 0;
}

/* ==== the job table ======================================================= */

enum { RUNNING, STOPPED, DONE };

struct job {
	int id;				/* [id]; 0: a free slot */
	pid_t pgid;
	int nprocs;
	struct { pid_t pid; int state, status; } proc[MAX_STAGES];
	char text[LINE_LEN];		/* the command line, as typed */
	char last[32];			/* the last stage's name: status lines */
	bool last_builtin;
	bool foreground;
	bool changed;			/* stopped or ended: tell the user */
	unsigned stamp;			/* when started or stopped: picks + and - */
};

static struct job jobs[MAX_JOBS];
static unsigned stamp;

static struct job *job_new(const char *text, int len)
{
	int id = 0;
	struct job *free_slot = NULL;

	for (int i = 0; i < MAX_JOBS; i++) {
		if (jobs[i].id > id)
			id = jobs[i].id;
		if (!jobs[i].id && !free_slot)
			free_slot = &jobs[i];
	}
	if (!free_slot) {
		err("too many jobs (max %d): wait for some", MAX_JOBS);
		return NULL;
	}
	memset(free_slot, 0, sizeof(*free_slot));
	free_slot->id = id + 1;		/* one more than the highest, as bash */
	free_slot->stamp = ++stamp;
	snprintf(free_slot->text, sizeof(free_slot->text), "%.*s", len, text);
	return free_slot;
}

static void job_free(struct job *j) { j->id = 0; }

static int job_state(const struct job *j)
{
	int state = DONE;

	for (int i = 0; i < j->nprocs; i++) {
		if (j->proc[i].state == RUNNING)
			return RUNNING;
		if (j->proc[i].state == STOPPED)
			state = STOPPED;
	}
	return state;
}

/* A wait status as $? has it: the code, or 128 + the signal. */
static int status_code(int status)
{
	if (WIFSTOPPED(status))
		return 128 + WSTOPSIG(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* The job's status: its last process's. */
static int job_status(const struct job *j)
{
	return j->nprocs ? status_code(j->proc[j->nprocs - 1].status) : 0;
}

/* + marks the current job (the one fg and bg take by default), - the one
 * before: the most recently started or stopped, stopped ones first. */
static struct job *job_ranked(int rank)
{
	struct job *best[2] = { NULL, NULL };

	for (int i = 0; i < MAX_JOBS; i++) {
		struct job *j = &jobs[i];
		if (!j->id || j->foreground)
			continue;
		for (int r = 0; r < 2; r++) {
			struct job *b = best[r];
			bool js = job_state(j) == STOPPED, bs = b && job_state(b) == STOPPED;
			if (!b || js > bs || (js == bs && j->stamp > b->stamp)) {
				if (r == 0)
					best[1] = best[0];
				best[r] = j;
				break;
			}
		}
	}
	return best[rank];
}

static char job_mark(const struct job *j)
{
	return j == job_ranked(0) ? '+' : j == job_ranked(1) ? '-' : ' ';
}

/* "Running", "Stopped", "Done", "Exit 3", "Terminated", "Killed" ... */
static const char *job_describe(const struct job *j, char *buf, int size)
{
	int state = job_state(j);
	int st = j->proc[j->nprocs - 1].status;

	if (state == RUNNING)
		return "Running";
	if (state == STOPPED) {
		for (int i = 0; i < j->nprocs; i++)
			if (j->proc[i].state == STOPPED)
				return strsignal(WSTOPSIG(j->proc[i].status));
	}
	if (WIFSIGNALED(st))
		snprintf(buf, size, "%s%s", strsignal(WTERMSIG(st)),
			 WCOREDUMP(st) ? " (core dumped)" : "");
	else if (WEXITSTATUS(st))
		snprintf(buf, size, "Exit %d", WEXITSTATUS(st));
	else
		return "Done";
	return buf;
}

/* bash's job line: "[1]+  Running                 spin 30 &". */
static void job_print(const struct job *j, FILE *f)
{
	char buf[48];
	bool running = job_state(j) == RUNNING;

	fflush(stdout);
	fprintf(f, "[%d]%c  %-24s%s%s\n", j->id, job_mark(j),
		job_describe(j, buf, sizeof(buf)), j->text, running ? " &" : "");
}

/* Before a prompt: say which background jobs stopped or ended, and forget
 * the ended ones. */
static void notify_jobs(void)
{
	for (int i = 0; i < MAX_JOBS; i++) {
		struct job *j = &jobs[i];
		if (!j->id || j->foreground || !j->changed)
			continue;
		j->changed = false;
		if (interactive)
			job_print(j, stderr);
		if (job_state(j) == DONE)
			job_free(j);
	}
}

/* A job by its spec: %N, %% or %+ (current), %- (previous), %NAME (the
 * job whose command starts so) or a bare N (kill and wait take a bare
 * number as a pid, and do not ask).  NULL, with a message, if none. */
static struct job *job_find(const char *who, const char *spec)
{
	const char *s = spec;
	struct job *found = NULL;
	int id;

	if (!s || !strcmp(s, "%") || !strcmp(s, "%%") || !strcmp(s, "%+") ||
	    !strcmp(s, "%-")) {
		found = job_ranked(s && !strcmp(s, "%-") ? 1 : 0);
		if (!found)
			err("%s: %s: no such job", who, s && !strcmp(s, "%-") ? "previous" : "current");
		return found;
	}
	if (*s == '%')
		s++;
	if (parse_int_arg(s, 1, 1000000, &id)) {
		for (int i = 0; i < MAX_JOBS; i++)
			if (jobs[i].id == id && !jobs[i].foreground)
				found = &jobs[i];
	} else {
		for (int i = 0; i < MAX_JOBS; i++) {
			if (!jobs[i].id || jobs[i].foreground ||
			    strncmp(jobs[i].text, s, strlen(s)))
				continue;
			if (found) {
				err("%s: %s: ambiguous job spec", who, spec);
				return NULL;
			}
			found = &jobs[i];
		}
	}
	if (!found)
		err("%s: %s: no such job", who, spec);
	return found;
}

/* The whole job: its process group, or (no groups: an older kernel, or job
 * control off) each of its processes that is still there. */
static int signal_job(struct job *j, int sig)
{
	int ret = -1;

	if (jobctl && j->pgid > 1 && kill(-j->pgid, sig) == 0)
		ret = 0;
	else
		for (int i = 0; i < j->nprocs; i++)
			if (j->proc[i].state != DONE && kill(j->proc[i].pid, sig) == 0)
				ret = 0;
	if (ret == 0 && sig == SIGCONT)
		for (int i = 0; i < j->nprocs; i++)
			if (j->proc[i].state == STOPPED)
				j->proc[i].state = RUNNING;
	return ret;
}

/* ==== waiting ============================================================= */

static int wait_flags = WUNTRACED | WCONTINUED;

/* A child's new state, into its job (children not in the table, such as
 * orphans handed to pid 1, are just reaped). */
static void record(pid_t pid, int status)
{
	for (int i = 0; i < MAX_JOBS; i++) {
		struct job *j = &jobs[i];
		for (int k = 0; j->id && k < j->nprocs; k++) {
			if (j->proc[k].pid != pid)
				continue;
			int before = job_state(j);
			if (WIFCONTINUED(status)) {
				j->proc[k].state = RUNNING;
			} else {
				j->proc[k].state = WIFSTOPPED(status) ? STOPPED : DONE;
				j->proc[k].status = status;
			}
			int after = job_state(j);
			if (after != before && after != RUNNING) {
				j->changed = true;
				if (after == STOPPED)
					j->stamp = ++stamp;	/* the current job now */
			}
			return;
		}
	}
}

/* Wait for one child to change state and record it: its pid, 0 (nothing
 * yet, with nohang) or -1 and errno.  A kernel that refuses WCONTINUED or
 * WUNTRACED (EINVAL) is asked again without them. */
static pid_t reap_one(bool nohang)
{
	int status;
	pid_t pid;

	for (;;) {
		pid = waitpid(-1, &status, wait_flags | (nohang ? WNOHANG : 0));
		if (pid >= 0 || errno != EINVAL || !wait_flags)
			break;
		wait_flags &= (wait_flags & WCONTINUED) ? ~WCONTINUED : ~WUNTRACED;
	}
	if (pid > 0)
		record(pid, status);
	return pid;
}

static void reap_finished(void)
{
	while (reap_one(true) > 0)
		;
}

/* A Ctrl-C or Ctrl-Z typed between Enter and the job taking the terminal
 * signals the shell (its group still had the terminal): pass it on to the
 * job it was meant for. */
static void pass_on_caught(struct job *j)
{
	int sig = caught;

	caught = 0;
	if (sig && j->foreground)
		signal_job(j, sig);
}

/* Block until job j has ended or stopped.  A lost child (ECHILD: someone
 * else reaped it) counts as ended with status 0. */
static void wait_job(struct job *j)
{
	while (job_state(j) == RUNNING) {
		pass_on_caught(j);
		if (reap_one(false) >= 0 || errno == EINTR)
			continue;
		for (int i = 0; i < j->nprocs; i++)
			if (j->proc[i].state != DONE)
				j->proc[i].state = DONE, j->proc[i].status = 0;
	}
}

/* Depth of commands whose status is being tested: an if, while or until
 * condition, the left of && or ||, what ! negates. Their failure is an
 * answer, not an error (the commands set -e passes over, in POSIX). */
static int testing;

/* What bash says when a foreground job ends badly: the signal that killed
 * it ("Killed", "Terminated"; only a newline after Ctrl-C), or our own
 * "exit status N" line, unless the status was being tested.  127 and 126
 * were already explained by the child. */
static void report_foreground(const struct job *j)
{
	int st = j->proc[j->nprocs - 1].status;

	fflush(stdout);
	if (WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);
		if (sig == SIGINT)
			fprintf(stderr, "\n");
		else if (sig != SIGPIPE)
			fprintf(stderr, "%s%s\n", strsignal(sig),
				WCOREDUMP(st) ? " (core dumped)" : "");
	} else if (interactive && !testing && !j->last_builtin && WEXITSTATUS(st) &&
		   WEXITSTATUS(st) != 126 && WEXITSTATUS(st) != 127) {
		err("%s: exit status %d", j->last, WEXITSTATUS(st));
	}
}

/* Run job j in the foreground: give it the terminal, wait until it ends or
 * stops, take the terminal (and its modes) back.  Returns $?. */
static int foreground(struct job *j)
{
	int status;

	j->foreground = true;
	if (jobctl)
		tcsetpgrp(0, j->pgid);
	wait_job(j);
	if (jobctl) {
		tcsetpgrp(0, shell_pgid);
		if (have_tmodes)
			tcsetattr(0, TCSADRAIN, &shell_tmodes);
	}
	j->foreground = false;
	status = job_status(j);
	if (job_state(j) == STOPPED) {
		j->changed = false;
		fflush(stdout);
		fprintf(stderr, "\n");
		job_print(j, stderr);
		return status;
	}
	report_foreground(j);
	if (WIFSIGNALED(j->proc[j->nprocs - 1].status) &&
	    WTERMSIG(j->proc[j->nprocs - 1].status) == SIGINT)
		interrupted = true;	/* Ctrl-C: the rest of the line is dropped */
	job_free(j);
	return status;
}

/* ==== running pipelines and lists ======================================= */

static int run_builtin(int argc, char **argv);
static bool is_builtin(const char *name);

static const int job_signals[] = { SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU };
#define NJOB_SIGNALS (int)(sizeof(job_signals) / sizeof(job_signals[0]))

static void set_job_signals(sighandler_t h)
{
	for (int i = 0; i < NJOB_SIGNALS; i++)
		signal(job_signals[i], h);
}

/* SIGINT and SIGTSTP, the two the shell catches, held back while it forks:
 * a child must not take one in the shell's handler before it has the
 * default action back (then it gets it, pending, at child_setup). */
static void hold_tty_signals(int how)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTSTP);
	if (interactive)
		sigprocmask(how, &set, NULL);
}

/* In a new child: its process group (set here and by the parent, so that
 * neither has to wait for the other), the terminal if it is in the
 * foreground (while SIGTTOU is still ignored), and the default signals. */
static void child_setup(pid_t pgid, bool fg)
{
	if (jobctl) {
		setpgid(0, pgid);
		if (fg)
			tcsetpgrp(0, pgid ? pgid : getpid());
	}
	if (interactive) {
		set_job_signals(SIG_DFL);
		hold_tty_signals(SIG_UNBLOCK);
	}
	interactive = jobctl = false;	/* a child runs no jobs of its own */
}

static void child_exec(struct argv *a)
{
	char path[LINE_LEN + 128];
	const char *name = a->argv[0];

	if (a->in) {
		int fd = open(a->in, O_RDONLY);
		if (fd < 0) {
			err("%s: %s", a->in, strerror(errno));
			_exit(1);
		}
		dup2(fd, 0);
		close(fd);
	}
	if (a->out) {
		int fd = open(a->out, O_WRONLY | O_CREAT | (a->append ? O_APPEND : O_TRUNC), 0666);
		if (fd < 0) {
			err("%s: %s", a->out, strerror(errno));
			_exit(1);
		}
		dup2(fd, 1);
		close(fd);
	}
	if (a->argc == 0)
		_exit(0);		/* only NAME=VALUE words: nothing to run */
	if (is_builtin(name)) {
		int status = run_builtin(a->argc, a->argv);
		fflush(stdout);
		_exit(status);
	}
	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", bindir, name);
	a->argv[0] = path;	/* programs find their siblings from argv[0] */
	execve(path, a->argv, child_environ(a->word, a->nassign));
	/* One line that says both why and what $? is (the parent adds none). */
	if (errno == ENOENT) {
		err("%s: not found, exit status 127", name);
		_exit(127);
	}
	err("%s: %s, exit status 126", name, strerror(errno));
	_exit(126);
}

static void job_add_proc(struct job *j, pid_t pid)
{
	if (!j->pgid)
		j->pgid = pid;		/* the first stage leads the group */
	if (jobctl)
		setpgid(pid, j->pgid);	/* EACCES once it has exec'd: fine */
	j->proc[j->nprocs].pid = pid;
	j->proc[j->nprocs].state = RUNNING;
	j->nprocs++;
}

/* Fork every stage, each reading the previous one's pipe.  Returns 0, or
 * -1 if a pipe or fork failed (the stages started so far are in the job). */
static int start_stages(struct job *j, struct argv *a, int n, bool fg)
{
	int prev = -1;		/* the read end the next stage takes as stdin */

	hold_tty_signals(SIG_BLOCK);
	for (int s = 0; s < n; s++) {
		int fds[2] = { -1, -1 };
		pid_t pid;

		if (s < n - 1 && pipe(fds) < 0) {
			err("pipe: %s", strerror(errno));
			break;
		}
		pid = fork();
		if (pid < 0) {
			err("fork: %s", strerror(errno));
			close(fds[0]), close(fds[1]);
			break;
		}
		if (pid == 0) {
			child_setup(j->pgid, fg);
			if (prev >= 0)
				dup2(prev, 0), close(prev);
			if (fds[1] >= 0)
				dup2(fds[1], 1), close(fds[1]), close(fds[0]);
			child_exec(&a[s]);
		}
		job_add_proc(j, pid);
		if (prev >= 0)
			close(prev);
		if (fds[1] >= 0)
			close(fds[1]);
		prev = fds[0];
	}
	if (prev >= 0)
		close(prev);
	hold_tty_signals(SIG_UNBLOCK);
	return j->nprocs == n ? 0 : -1;
}

/* Start a job's processes (given as stages, or one subshell running
 * pipelines first..last), then wait for it or leave it in the background. */
static int launch(struct job *j, bool bg)
{
	if (!bg)
		return foreground(j);
	last_bg = j->proc[j->nprocs - 1].pid;
	if (interactive) {
		fflush(stdout);
		fprintf(stderr, "[%d] %d\n", j->id, last_bg);
	}
	return 0;
}

/* Can this redirection's file be opened so? Said once here if not. */
static bool cannot_open(const char *path, int flags)
{
	int fd = path ? open(path, flags, 0666) : -2;
	if (fd == -1) {
		err("%s: %s", path, strerror(errno));
		return true;
	}
	if (fd >= 0)
		close(fd);
	return false;
}

/* A < FILE that cannot be opened, or a > FILE that cannot be written (the
 * read-only initrd: EROFS): said here, once, and nothing runs (bash would
 * start the other stages; then the child's message would come with an
 * "exit status" line naming a program that never ran). The > file is
 * opened without O_TRUNC here: the child truncates it. */
static bool inputs_missing(struct argv *a, int n)
{
	for (int s = 0; s < n; s++)
		if (cannot_open(a[s].in, O_RDONLY) || cannot_open(a[s].out, O_WRONLY | O_CREAT))
			return true;
	return false;
}

/* One pipeline: a builtin alone in the foreground runs in the shell (it
 * may change the shell: exit, fg, wait); anything else is a job. */
static int run_pipeline(const struct pipeline *p, const char *line, bool bg)
{
	static struct argv a[MAX_STAGES];
	struct job *j;
	int n = p->ncmds;

	if (expand_pipeline(p, a) < 0)
		return STATUS_SYNTAX;
	if (inputs_missing(a, n))
		return 1;
	if (n == 1 && !bg && a[0].argc == 0) {	/* X=5: the shell's own variable */
		for (int k = 0; k < a[0].nassign; k++) {
			size_t len = assignment_name(p->cmd[0].words[k]);
			if (var_set(a[0].word[k], len, a[0].word[k] + len + 1, false) < 0)
				return 1;
		}
		return 0;
	}
	if (n == 1 && !bg && !a[0].in && !a[0].out && is_builtin(a[0].argv[0])) {
		fflush(stdout);
		return run_builtin(a[0].argc, a[0].argv);
	}
	j = job_new(line + p->start, p->end - p->start);
	if (!j)
		return STATUS_SYNTAX;
	snprintf(j->last, sizeof(j->last), "%s", a[n - 1].argc ? a[n - 1].argv[0] : "sh");
	j->last_builtin = a[n - 1].argc == 0 || is_builtin(a[n - 1].argv[0]);
	if (start_stages(j, a, n, !bg) < 0) {
		/* A stage is missing: end the ones that run, and the job failed. */
		if (j->nprocs > 0)
			signal_job(j, SIGKILL);
		wait_job(j);
		job_free(j);
		return 1;
	}
	return launch(j, bg);
}

static const char *cur_line;	/* the text being run: the jobs' names */
static int exec_node(const struct node *n);
static int loop_depth;		/* loops running: what break N and continue N may leave */
static int breaking, continuing;	/* loops still to leave / to go on with */

/* After a loop's body: true to leave the loop (break, or continue of an
 * outer loop), as POSIX's break N and continue N count loops. */
static bool leave_loop(void)
{
	if (breaking) {
		breaking--;
		return true;
	}
	if (continuing) {
		continuing--;
		return continuing > 0;
	}
	return interrupted;
}

/* "a && b &", "for ...; done &": one background job, a forked copy of the
 * shell that runs the tree (its pipelines stay in its process group). */
static int run_subshell(const struct node *n)
{
	struct job *j = job_new(cur_line + n->start, n->end - n->start);
	pid_t pid;

	if (!j)
		return STATUS_SYNTAX;
	snprintf(j->last, sizeof(j->last), "sh");
	pid = fork();
	if (pid < 0) {
		err("fork: %s", strerror(errno));
		job_free(j);
		return 1;
	}
	if (pid == 0) {
		child_setup(0, false);
		memset(jobs, 0, sizeof(jobs));	/* the parent's, not ours */
		_exit(exec_node(n));
	}
	job_add_proc(j, pid);
	return launch(j, true);
}

/* for NAME in WORDS: the words expanded once, before the first round (a
 * word that came from $VAR unquoted is split at blanks, as POSIX does). */
static int exec_for(const struct node *n)
{
	char *values = malloc(EXPAND_LEN), *v = values;
	int status = 0;

	if (!values) {
		err("for: out of memory");
		return 1;
	}
	exp_next = expanded;
	exp_full = false;
	for (int w = 0; w < n->nwords; w++) {
		char *word = expand(n->words[w]);
		bool split = !strchr(n->words[w], '"') && !strchr(n->words[w], '\'');
		for (char *c = word; *c && v < values + EXPAND_LEN - 1; c++)
			*v++ = split && is_blank(*c) ? '\0' : *c;
		*v++ = '\0';
	}
	char *end = v;
	loop_depth++;
	for (v = values; v < end && !interrupted; v += strlen(v) + 1) {
		if (!*v)
			continue;	/* an empty field from splitting */
		if (var_set(n->var, strlen(n->var), v, false) < 0)
			break;
		status = exec_node(n->a);
		if (leave_loop())
			break;
	}
	loop_depth--;
	free(values);
	return last_status = status;
}

/*
 * Run a tree node; returns $? after it.  IF: a is the condition, b the
 * then-part, c the else-part (or the elif's IF).  WHILE/UNTIL: a is the
 * condition, b the body; $? of a loop is its last body's, 0 if none ran.
 * A foreground job ended by Ctrl-C stops the rest, loops included.
 */
static int exec_node(const struct node *n);

/* n, whose status decides what runs next. */
static int exec_test(const struct node *n)
{
	testing++;
	int status = exec_node(n);
	testing--;
	return status;
}

static int exec_node(const struct node *n)
{
	int status = 0;

	if (!n || interrupted || breaking || continuing)
		return last_status;
	switch (n->type) {
	case N_PIPE:
		return last_status = run_pipeline(&pipes[n->pipe], cur_line, false);
	case N_NOT:
		exec_test(n->a);
		return last_status = !last_status;
	case N_AND:
	case N_OR:
		exec_test(n->a);
		if (!interrupted && (last_status == 0) == (n->type == N_AND))
			exec_node(n->b);
		return last_status;
	case N_SEQ:
		exec_node(n->a);
		return exec_node(n->b);
	case N_BG:
		if (n->a->type == N_PIPE)
			return last_status = run_pipeline(&pipes[n->a->pipe], cur_line, true);
		return last_status = run_subshell(n->a);
	case N_IF:
		exec_test(n->a);
		if (interrupted)
			return last_status;
		if (last_status == 0)
			return exec_node(n->b);
		return n->c ? exec_node(n->c) : (last_status = 0);
	case N_WHILE:
	case N_UNTIL:
		loop_depth++;
		for (;;) {
			exec_test(n->a);
			if (interrupted || (last_status == 0) != (n->type == N_WHILE))
				break;
			status = exec_node(n->b);
			if (leave_loop())
				break;
		}
		loop_depth--;
		return last_status = status;
	case N_FOR:
		return exec_for(n);
	}
	return last_status;
}

/* A parsed text: a foreground job killed by Ctrl-C ends it. */
static void run_line(const char *line)
{
	cur_line = line;
	interrupted = false;
	exec_node(tree);
}

static void run_text(char *line)
{
	if (lex(line) < 0 || parse() < 0) {
		last_status = STATUS_SYNTAX;
		return;
	}
	run_line(line);
}

/* ==== builtins ============================================================ */

static int too_many(const char *who)
{
	err("%s: too many arguments", who);
	return STATUS_SYNTAX;
}

static int bi_exit(int argc, char **argv)
{
	static int warned_line;
	int code = 0;

	if (argc > 2)
		return too_many("exit");
	if (argc == 2 && !parse_int_arg(argv[1], -2147483647L, 2147483647L, &code)) {
		err("exit: %s: numeric argument required", argv[1]);
		code = STATUS_SYNTAX;
	}
	for (int i = 0; i < MAX_JOBS; i++) {
		if (jobs[i].id && job_state(&jobs[i]) == STOPPED &&
		    warned_line != line_no - 1 && warned_line != line_no) {
			err("there are stopped jobs ('exit' again to leave anyway)");
			warned_line = line_no;
			return 1;
		}
	}
	if (interactive)
		outs("exit\n");
	fflush(stdout);
	exit(code & 0xff);
}

static int bi_jobs(int argc, char **argv)
{
	int ret = 0;

	reap_finished();
	for (int i = 1; i < argc; i++) {
		struct job *j = job_find("jobs", argv[i]);
		if (j)
			job_print(j, stdout);
		else
			ret = STATUS_SYNTAX;
	}
	for (int i = 0; argc == 1 && i < MAX_JOBS; i++)
		if (jobs[i].id && !jobs[i].foreground)
			job_print(&jobs[i], stdout);
	/* What jobs has shown as ended is not announced again. */
	for (int i = 0; i < MAX_JOBS; i++)
		if (jobs[i].id && job_state(&jobs[i]) != RUNNING && argc == 1) {
			jobs[i].changed = false;
			if (job_state(&jobs[i]) == DONE)
				job_free(&jobs[i]);
		}
	return ret;
}

static int bi_fg(int argc, char **argv)
{
	struct job *j;

	if (argc > 2)
		return too_many("fg");
	if (!interactive) {
		err("fg: no job control");
		return 1;
	}
	j = job_find("fg", argc > 1 ? argv[1] : NULL);
	if (!j)
		return STATUS_SYNTAX;
	printf("%s\n", j->text);
	j->stamp = ++stamp;
	if (job_state(j) == STOPPED) {
		if (jobctl)
			tcsetpgrp(0, j->pgid);	/* before it runs, as bash */
		signal_job(j, SIGCONT);
	}
	j->changed = false;
	return foreground(j);
}

static int bi_bg(int argc, char **argv)
{
	struct job *j;

	if (argc > 2)
		return too_many("bg");
	if (!interactive) {
		err("bg: no job control");
		return 1;
	}
	j = job_find("bg", argc > 1 ? argv[1] : NULL);
	if (!j)
		return STATUS_SYNTAX;
	if (job_state(j) != STOPPED) {
		err("bg: job %d already in background", j->id);
		return 0;
	}
	printf("[%d]%c %s &\n", j->id, job_mark(j), j->text);
	signal_job(j, SIGCONT);
	j->changed = false;
	return 0;
}

/* kill -l [N]: the names, from the one table in libc. */
static int kill_list(const char *arg)
{
	int n;

	if (arg) {
		if (!parse_int_arg(arg, 1, 255, &n) || !sig_abbrev(n > 128 ? n - 128 : n)) {
			err("kill: %s: invalid signal specification", arg);
			return 1;
		}
		printf("%s\n", sig_abbrev(n > 128 ? n - 128 : n));
		return 0;
	}
	for (int sig = 1; sig < 32; sig++)
		printf("%2d) SIG%-8s%s", sig, sig_abbrev(sig), sig % 4 ? "" : "\n");
	printf("\n");
	return 0;
}

/* "TERM", "term", "SIGTERM", "15" -> 15; 0 for "0"; -1 otherwise. */
static int kill_signal(const char *spec)
{
	char up[16];
	int i;

	if (!strcmp(spec, "0"))
		return 0;
	for (i = 0; spec[i] && i < (int)sizeof(up) - 1; i++)
		up[i] = spec[i] >= 'a' && spec[i] <= 'z' ? spec[i] - 32 : spec[i];
	up[i] = '\0';
	return sig_from_name(up);
}

static int kill_target(const char *arg, int sig)
{
	int pid;

	if (arg[0] == '%') {
		struct job *j = job_find("kill", arg);
		if (!j)
			return STATUS_SYNTAX;
		if (signal_job(j, sig) < 0) {
			err("kill: %s: %s", arg, strerror(errno));
			return 1;
		}
		/* A stopped job would only see TERM or HUP once it runs again. */
		if ((sig == SIGTERM || sig == SIGHUP) && job_state(j) == STOPPED)
			signal_job(j, SIGCONT);
		return 0;
	}
	if (!parse_int_arg(arg, -2147483647L, 2147483647L, &pid)) {
		err("kill: %s: arguments must be process or job IDs", arg);
		return 1;
	}
	if (kill(pid, sig) < 0) {
		err("kill: (%d) - %s", pid, strerror(errno));
		return 1;
	}
	return 0;
}

static int bi_kill(int argc, char **argv)
{
	int sig = SIGTERM, i = 1, ret = 0;

	if (argc >= 2 && !strcmp(argv[1], "-l"))
		return argc > 3 ? too_many("kill") : kill_list(argc == 3 ? argv[2] : NULL);
	if (argc >= 3 && (!strcmp(argv[1], "-s") || !strcmp(argv[1], "-n"))) {
		sig = kill_signal(argv[2]);
		i = 3;
		if (sig < 0) {
			err("kill: %s: invalid signal specification", argv[2]);
			return 1;
		}
	} else if (argc >= 2 && argv[1][0] == '-' && argv[1][1]) {
		sig = kill_signal(argv[1] + 1);
		i = 2;
		if (sig < 0) {
			err("kill: %s: invalid signal specification", argv[1] + 1);
			return 1;
		}
	}
	if (i >= argc) {
		err("kill: usage: kill [-SIG | -s SIG] PID|%%JOB ...  or  kill -l [N]");
		return STATUS_SYNTAX;
	}
	for (; i < argc; i++) {
		int r = kill_target(argv[i], sig);
		ret = r > ret ? r : ret;
	}
	reap_finished();
	return ret;
}

/* For wait: block until job j (NULL: every background job) is no longer
 * running.  False if Ctrl-C came first (SIGINT reaches our handler, and
 * waitpid returns EINTR); a Ctrl-Z is no reason to stop waiting. */
static bool wait_running(const struct job *j)
{
	for (;;) {
		bool any = false;

		if (caught == SIGINT) {
			caught = 0;
			return false;
		}
		caught = 0;
		for (int s = 0; s < MAX_JOBS; s++)
			any |= jobs[s].id && (!j || j == &jobs[s]) &&
			       job_state(&jobs[s]) == RUNNING;
		if (!any || (reap_one(false) < 0 && errno != EINTR))
			return true;
	}
}

/* wait's argument: a %job, or a pid (*k: its place in the job).  NULL
 * after a message, with *ret set to the status bash gives. */
static struct job *wait_target(const char *arg, int *k, int *ret)
{
	int pid;

	*k = -1;
	if (arg[0] == '%') {
		struct job *j = job_find("wait", arg);
		if (!j)
			*ret = STATUS_SYNTAX;
		return j;
	}
	if (!parse_int_arg(arg, 1, 2147483647L, &pid)) {
		err("wait: %s: not a pid or valid job spec", arg);
		*ret = STATUS_SYNTAX;
		return NULL;
	}
	for (int s = 0; s < MAX_JOBS; s++)
		for (int i = 0; jobs[s].id && i < jobs[s].nprocs; i++)
			if (jobs[s].proc[i].pid == pid) {
				*k = i;
				return &jobs[s];
			}
	err("wait: pid %d is not a child of this shell", pid);
	*ret = 127;
	return NULL;
}

/* wait: every running background job; wait %N or PID: that one, and $? is
 * its status.  Ended jobs are announced before the next prompt. */
static int bi_wait(int argc, char **argv)
{
	int ret = 0, k;

	if (argc == 1 && !wait_running(NULL))
		goto interrupted;
	for (int i = 1; i < argc; i++) {
		struct job *j = wait_target(argv[i], &k, &ret);
		if (!j)
			continue;
		if (!wait_running(j))
			goto interrupted;
		ret = status_code(j->proc[k >= 0 ? k : j->nprocs - 1].status);
	}
	return ret;
interrupted:
	outs("\n");
	interrupted = true;
	return 130;
}

static int bi_history(int argc, char **argv)
{
	(void)argv;
	if (argc > 1)
		return too_many("history");
	for (int k = hist_count > HIST_MAX ? hist_count - HIST_MAX + 1 : 1; k <= hist_count; k++)
		printf("%5d  %s\n", k, hist_entry(k));
	return 0;
}

static int bi_echo(int argc, char **argv)
{
	int i = 1;
	bool newline = true;

	if (argc > 1 && !strcmp(argv[1], "-n"))
		newline = false, i++;
	for (; i < argc; i++)
		printf("%s%s", argv[i], i < argc - 1 ? " " : "");
	if (newline)
		printf("\n");
	if (fflush(stdout) != 0) {	/* bash: "echo: write error: ..." */
		err("echo: write error: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/* cd [DIR]: no DIR is $HOME, or "/" where HOME is not set (bash says
 * "HOME not set"; a student at the console has no HOME here). */
static int bi_cd(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : var_get("HOME");
	if (argc > 2)
		return too_many("cd");
	if (!dir || !*dir)
		dir = "/";
	if (chdir(dir) < 0) {
		err("cd: %s: %s", dir, strerror(errno));
		return 1;
	}
	return 0;
}

/* export NAME[=VALUE]...: into the environment of the commands run later. */
static int bi_export(int argc, char **argv)
{
	int ret = 0;
	for (int i = 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		size_t len = eq ? (size_t)(eq - argv[i]) : strlen(argv[i]);
		const char *old = NULL;
		bool valid = len > 0;
		for (size_t k = 0; k < len; k++)
			valid &= is_name_char(argv[i][k], k == 0);
		if (!valid) {
			err("export: '%s': not a valid identifier", argv[i]);
			ret = 1;
			continue;
		}
		if (!eq) {
			struct var *v = var_find(argv[i], len);
			old = v ? v->value : "";
		}
		if (var_set(argv[i], len, eq ? eq + 1 : old, true) < 0)
			ret = 1;
	}
	return ret;
}

static int bi_unset(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct var *v = var_find(argv[i], strlen(argv[i]));
		if (v) {
			free(v->value);
			v->value = NULL;
		}
	}
	return 0;
}

/* test / [: POSIX's (XCU test) forms with up to four arguments, and !.
 * Status 0 true, 1 false, 2 a bad expression (with a message). */
static int test_number(const char *s, long *v)
{
	int n;
	if (!parse_int_arg(s, -2147483647L - 1, 2147483647L, &n)) {
		err("test: %s: integer expression expected", s);
		return -1;
	}
	*v = n;
	return 0;
}

static int test_unary(const char *op, const char *arg)
{
	struct stat st;
	if (!strcmp(op, "-z")) return *arg != 0;
	if (!strcmp(op, "-n")) return *arg == 0;
	if (!strcmp(op, "-e")) return stat(arg, &st) != 0;
	if (!strcmp(op, "-f")) return stat(arg, &st) != 0 || !S_ISREG(st.st_mode);
	if (!strcmp(op, "-d")) return stat(arg, &st) != 0 || !S_ISDIR(st.st_mode);
	if (!strcmp(op, "-x")) return stat(arg, &st) != 0 || !(st.st_mode & 0111);
	err("test: %s: unary operator expected", op);
	return 2;
}

static int test_binary(const char *l, const char *op, const char *r)
{
	static const char *const ops[] = { "-eq", "-ne", "-lt", "-le", "-gt", "-ge" };
	long a, b;
	if (!strcmp(op, "=") || !strcmp(op, "=="))
		return strcmp(l, r) != 0;
	if (!strcmp(op, "!="))
		return strcmp(l, r) == 0;
	for (int k = 0; k < 6; k++) {
		if (strcmp(op, ops[k]))
			continue;
		if (test_number(l, &a) < 0 || test_number(r, &b) < 0)
			return 2;
		bool t = k == 0 ? a == b : k == 1 ? a != b : k == 2 ? a < b :
			 k == 3 ? a <= b : k == 4 ? a > b : a >= b;
		return !t;
	}
	err("test: %s: binary operator expected", op);
	return 2;
}

static int test_expr(int argc, char **argv)
{
	if (argc > 0 && !strcmp(argv[0], "!") && argc != 3) {
		int r = test_expr(argc - 1, argv + 1);
		return r == 2 ? 2 : !r;
	}
	switch (argc) {
	case 0: return 1;
	case 1: return argv[0][0] == 0;
	case 2: return test_unary(argv[0], argv[1]);
	case 3: return test_binary(argv[0], argv[1], argv[2]);
	default:
		err("test: too many arguments (-a, -o and ( ) are not supported: use && and ||)");
		return 2;
	}
}

static int bi_test(int argc, char **argv)
{
	if (!strcmp(argv[0], "[")) {
		if (strcmp(argv[argc - 1], "]")) {
			err("[: missing ']'");
			return 2;
		}
		argc--;
	}
	return test_expr(argc - 1, argv + 1);
}

/* break [N], continue [N]: leave (or go on with) the N innermost loops. */
static int bi_break(int argc, char **argv)
{
	int n = 1;
	if (argc > 2)
		return too_many(argv[0]);
	if (argc == 2 && !parse_int_arg(argv[1], 1, 1000, &n)) {
		err("%s: %s: loop count out of range", argv[0], argv[1]);
		return 1;
	}
	if (!loop_depth) {
		err("%s: only meaningful in a 'for', 'while', or 'until' loop", argv[0]);
		return 0;
	}
	if (n > loop_depth)
		n = loop_depth;
	if (argv[0][0] == 'b')
		breaking = n;
	else
		continuing = n;
	return 0;
}

static int bi_true(int argc, char **argv) { (void)argc, (void)argv; return 0; }
static int bi_false(int argc, char **argv) { (void)argc, (void)argv; return 1; }
static int bi_help(int argc, char **argv);

static const struct builtin {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage, *what;
} builtins[] = {
	{ "exit", bi_exit, "exit [N]", "leave the shell (status N, default 0)" },
	{ "cd", bi_cd, "cd [DIR]", "change the working directory (default /)" },
	{ "help", bi_help, "help", "this list" },
	{ "jobs", bi_jobs, "jobs [%N...]", "the jobs: Running, Stopped, Done" },
	{ "fg", bi_fg, "fg [%N]", "continue a job in the foreground" },
	{ "bg", bi_bg, "bg [%N]", "continue a stopped job in the background" },
	{ "kill", bi_kill, "kill [-SIG] %N|PID...", "send a signal (default TERM; kill -l)" },
	{ "wait", bi_wait, "wait [%N|PID...]", "wait for background jobs; $? is theirs" },
	{ "history", bi_history, "history", "the last 32 lines (Up and Down recall them)" },
	{ "echo", bi_echo, "echo [-n] WORD...", "print the words" },
	{ "export", bi_export, "export NAME[=VALUE]...", "pass NAME to the programs run later" },
	{ "unset", bi_unset, "unset NAME...", "forget variables" },
	{ "test", bi_test, "test EXPR, [ EXPR ]", "-eq -ne -lt -le -gt -ge = != -z -n -e -f -d !" },
	{ "[", bi_test, NULL, NULL },
	{ "break", bi_break, "break [N], continue [N]", "leave a loop, or start its next round" },
	{ "continue", bi_break, NULL, NULL },
	{ "true", bi_true, "true", "status 0" },
	{ "false", bi_false, "false", "status 1" },
};
#define NBUILTINS (int)(sizeof(builtins) / sizeof(builtins[0]))

/* The programs help lists; those not installed in bindir are left out. */
static const char *const programs[][2] = {
	{ "ps [-e] [-f] [-o LIST] [-p PID]", "every task; ps aux, ps -ef; -o pid,cls,pri,stair,..." },
	{ "top [-b] [-n N] [-d SEC]", "per-CPU load and the busiest tasks, until q" },
	{ "chrt -f|-r|-b|-o|-i [PRIO] CMD", "run CMD with a policy; -p PID: show/set; -m: ranges" },
	{ "nice [-n N] CMD", "run CMD with nice +N (default 10)" },
	{ "renice N -p PID", "set a running task's nice value" },
	{ "taskset MASK CMD | -p [MASK] PID", "run CMD on some CPUs; show/set PID's" },
	{ "setpriv [--reuid=UID] ... CMD", "run CMD with other user and group ids" },
	{ "tune [NAME [VALUE]]", "the scheduler tunables (rr_interval, iso_cpu, ...)" },
	{ "sysctl -a | KEY | -w KEY=N", "the tunables as kernel.rr_interval etc. (procps)" },
	{ "spin [SEC] [-c CPU]", "burn CPU; prints the CPU time it got" },
	{ "sleeper RUN SLEEP [SEC]", "run RUN ms, sleep SLEEP ms; wake-up latencies" },
	{ "periodic [--audio|--video]", "a periodic task: its deadlines met and missed" },
	{ "pgrep [-l] PATTERN", "the pids of the tasks whose name contains it" },
	{ "pkill [-SIG] PATTERN", "signal those tasks (default TERM)" },
	{ "kill [-SIG] PID...", "the program (the builtin also takes %N)" },
	{ "grep [-vicn] PATTERN [FILE]", "the lines that match (^ $ . * \\)" },
	{ "head [-n N] [FILE]", "the first N lines (default 10)" },
	{ "wc [-l] [-w] [-c] [FILE]", "count lines, words and bytes" },
	{ "trace run PROG [ARG...]", "record what the scheduler did while PROG runs" },
	{ "lockstat [-n N] | on|off|reset", "lock contention by class (/proc/lock_stat's table)" },
	{ "ls [-alh1] [FILE...]", "list a directory (ls -l: modes, owners, sizes)" },
	{ "cat [-n] [FILE...]", "print files" },
	{ "pwd", "the working directory" },
	{ "sleep SEC", "wait SEC seconds (0.5, 2m too)" },
	{ "uptime", "time since boot, load averages of 1, 5, 15 minutes" },
	{ "clear", "clear the screen" },
	{ "hello", "hello from pid N" },
};

static bool installed(const char *usage)
{
	char path[192];
	int n = 0, fd;

	while (usage[n] && usage[n] != ' ')
		n++;

	snprintf(path, sizeof(path), "%s/%.*s", bindir, n, usage);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int bi_help(int argc, char **argv)
{
	(void)argc, (void)argv;
	printf("builtins:\n");
	for (int i = 0; i < NBUILTINS; i++)
		if (builtins[i].usage)
			printf("  %-34s %s\n", builtins[i].usage, builtins[i].what);
	printf("a line: CMD [ARG...] [< FILE], joined by | ; && || and ending in & to\n"
	       "run in the background; 'quotes', \"$? $! $$ $NAME\", # comments.\n"
	       "Ctrl-C ends the foreground job, Ctrl-Z stops it (fg, bg go on).\n"
	       "Programs in %s:\n", bindir);
	for (unsigned i = 0; i < sizeof(programs) / sizeof(programs[0]); i++)
		if (installed(programs[i][0]))
			printf("  %-34s %s\n", programs[i][0], programs[i][1]);
	return 0;
}

static const struct builtin *builtin(const char *name)
{
	for (int i = 0; i < NBUILTINS; i++)
		if (!strcmp(name, builtins[i].name))
			return &builtins[i];
	return NULL;
}

static bool is_builtin(const char *name) { return builtin(name) != NULL; }

static int run_builtin(int argc, char **argv)
{
	return builtin(argv[0])->fn(argc, argv);
}

/* ==== main ================================================================ */

static void on_tty_signal(int sig)
{
	caught = sig;
}

/* A terminal on fd 0: edit lines, and take the terminal for job control.
 * Where the kernel has no terminal calls at all (ENOSYS) fd 0 is still
 * treated as the console: prompts and job notices, no editing. */
static void init_interactive(void)
{
	struct sigaction sa = { .sa_handler = on_tty_signal };	/* no SA_RESTART */

	have_tmodes = tcgetattr(0, &shell_tmodes) == 0;
	interactive = have_tmodes || errno == ENOSYS;
	if (!interactive)
		return;
	jobctl = true;
	shell_pgid = getpgrp();
	/* Started in the background of another shell: wait to be foreground. */
	while (have_tmodes && shell_pgid > 0 && tcgetpgrp(0) > 0 &&
	       tcgetpgrp(0) != shell_pgid)
		kill(-shell_pgid, SIGTTIN);
	set_job_signals(SIG_IGN);
	/* SIGINT and SIGTSTP are caught rather than ignored, which is the same
	 * for the shell (it never stops or dies of them) but lets Ctrl-C end
	 * a wait or a canonical-mode read at the prompt (EINTR), and lets the
	 * shell pass on one typed before the job had the terminal. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTSTP, &sa, NULL);
	if (setpgid(0, 0) == 0 || shell_pgid <= 0)
		shell_pgid = getpid();	/* a session leader keeps its group */
	tcsetpgrp(0, shell_pgid);
}

/* An if/while/for left open at the end of the line: append lines ("> "
 * on a terminal, as bash) until it closes or fails.  0: run it; -1: do
 * not (the error is said, $? is 2). */
static int read_more(char *line, size_t size)
{
	static char next[LINE_LEN];

	for (;;) {
		more_lines_ok = true;
		int ok = lex(line) >= 0 && parse() >= 0;
		more_lines_ok = false;
		if (ok || !incomplete)
			return 0;	/* run_text() says what is wrong, once */
		int n = read_line(next, interactive ? "> " : "");
		if (n == LINE_EOF || n == LINE_INTR) {
			if (n == LINE_EOF)
				err("syntax error: unexpected end of file");
			last_status = n == LINE_INTR ? 130 : STATUS_SYNTAX;
			return -1;
		}
		size_t len = strlen(line);
		if (n == LINE_LONG || len + 1 + strlen(next) >= size) {
			err("line too long (max %d characters in all)", LINE_LEN - 1);
			last_status = STATUS_SYNTAX;
			return -1;
		}
		line[len] = '\n';
		strcpy(line + len + 1, next);
	}
}

int main(int argc, char **argv)
{
	static char line[LINE_LEN], cmd[LINE_LEN];
	char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;

	if (slash && slash != argv[0])
		snprintf(bindir, sizeof(bindir), "%.*s",
			 (int)(slash - argv[0]), argv[0]);
	shell_pid = getpid();
	vars_import();
	if (argc >= 2 && !strcmp(argv[1], "-c")) {
		if (argc != 3 || strlen(argv[2]) >= LINE_LEN) {
			err("%s", argc < 3 ? "-c: a command line is needed" :
			    argc > 3 ? "-c: one command line only (quote it)" :
			    "line too long (max 255 characters)");
			return STATUS_SYNTAX;
		}
		snprintf(cmd, sizeof(cmd), "%s", argv[2]);
		run_text(cmd);
		return last_status;
	}
	if (argc >= 2 && argv[1][0] != '-') {	/* sh FILE [ARG...] */
		input_fd = open(argv[1], O_RDONLY | O_CLOEXEC);
		if (input_fd < 0) {
			err("%s: %s", argv[1], strerror(errno));
			return 127;		/* bash's and dash's status */
		}
		script_argv = argv + 1;
		script_argc = argc - 1;
	} else {
		init_interactive();
	}
	for (;;) {
		int n;

		reap_finished();
		notify_jobs();
		fflush(stdout);
		caught = 0;
		n = read_line(line, interactive ? "$ " : "");
		line_no++;
		if (n == LINE_EOF)
			break;
		if (n == LINE_INTR) {
			if (!have_tmodes)
				outs("\n");
			last_status = 130;
			continue;
		}
		if (n == LINE_LONG) {
			err("line too long (max %d characters)", LINE_LEN - 1);
			last_status = STATUS_SYNTAX;
			continue;
		}
		if (interactive)
			history_add(line);
		if (read_more(line, sizeof(line)) < 0)
			continue;
		run_text(line);
	}
	if (interactive)
		outs("exit\n");
	return script_argv ? last_status : 0;
}
