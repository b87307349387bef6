/*
 * capability.c - capabilities, as Linux keeps them (kernel/capability.c
 * and security/commoncap.c, without file capabilities): five sets per
 * task (struct caps, cred.h), the privilege checks read the effective
 * one (capable()), and these rules move them:
 *   - init has every capability; fork copies the sets;
 *   - exec: root (real or effective uid 0, unless SECURE_NOROOT) gets
 *     the bounding set plus the inheritable one as permitted, effective
 *     too if its effective uid is 0; anyone gets the ambient set in both;
 *   - a change of uids that leaves no id 0 drops permitted, effective and
 *     ambient (unless SECURE_KEEP_CAPS: PR_SET_KEEPCAPS); the effective
 *     uid leaving 0 drops effective, coming back to 0 restores it;
 *   - capset: only the caller's own sets; permitted may only shrink,
 *     effective stays inside it, inheritable inside the bounding set and,
 *     without CAP_SETPCAP, inside permitted;
 *   - prctl: the bounding set shrinks (PR_CAPBSET_DROP, CAP_SETPCAP),
 *     ambient capabilities are raised and lowered (PR_CAP_AMBIENT), and
 *     securebits set (CAP_SETPCAP; a locked bit never changes again).
 */
#include "lib/errno.h"
#include "proc.h"
#include "kernel/mm/uaccess.h"
#include "cred.h"
#include <uapi/prctl.h>

#define SECBIT(b)	(1u << (b))
#define SECURE_ALL_BITS	(SECBIT(SECURE_NOROOT) | SECBIT(SECURE_NO_SETUID_FIXUP) | \
			 SECBIT(SECURE_KEEP_CAPS) | SECBIT(SECURE_NO_CAP_AMBIENT_RAISE))
#define SECURE_ALL_LOCKS (SECURE_ALL_BITS << 1)

static bool has(uint64_t set, int cap)	{ return (set >> cap) & 1; }
static bool subset(uint64_t a, uint64_t b) { return (a & ~b) == 0; }
static bool cap_valid(uint32_t cap)	{ return cap <= CAP_LAST_CAP; }

bool proc_capable(const struct proc *p, int cap)
{
	return has(p->caps.effective, cap);
}

bool capable(int cap)
{
	return proc_capable(current(), cap);
}

void caps_init(struct caps *c)
{
	*c = (struct caps){ .effective = CAP_VALID, .permitted = CAP_VALID,
			    .bounding = CAP_VALID };
}

void caps_exec(struct proc *p)
{
	struct caps *c = &p->caps;
	uint64_t old_permitted = c->permitted;
	bool setid = p->euid != p->uid || p->egid != p->gid;
	bool noroot = c->securebits & SECBIT(SECURE_NOROOT);
	bool effective = !noroot && p->euid == 0;

	c->permitted = !noroot && (p->euid == 0 || p->uid == 0) ? c->bounding | c->inheritable : 0;
	/* no_new_privs: the program gains nothing, not even the effective
	 * ids that differ from the real ones */
	if (c->no_new_privs && (setid || !subset(c->permitted, old_permitted))) {
		p->euid = p->uid;
		p->egid = p->gid;
		c->permitted &= old_permitted;
	}
	if (setid)
		c->ambient = 0;
	c->permitted |= c->ambient;
	c->effective = effective ? c->permitted : c->ambient;
	c->securebits &= (uint8_t)~SECBIT(SECURE_KEEP_CAPS);
	p->suid = p->euid;		/* exec makes the saved ids the effective ones */
	p->sgid = p->egid;
}

void caps_setuid_fixup(struct proc *p, int old_r, int old_e, int old_s)
{
	struct caps *c = &p->caps;
	if (c->securebits & SECBIT(SECURE_NO_SETUID_FIXUP))
		return;
	bool had_root = old_r == 0 || old_e == 0 || old_s == 0;
	bool has_root = p->uid == 0 || p->euid == 0 || p->suid == 0;
	if (had_root && !has_root) {
		if (!(c->securebits & SECBIT(SECURE_KEEP_CAPS)))
			c->permitted = c->effective = 0;
		c->ambient = 0;
	}
	if (old_e == 0 && p->euid != 0)
		c->effective = 0;
	if (old_e != 0 && p->euid == 0)
		c->effective = c->permitted;
}

/* ---- prctl ------------------------------------------------------------ */

static int set_securebits(struct caps *c, uint32_t bits)
{
	uint32_t old = c->securebits;
	if ((((old & SECURE_ALL_LOCKS) >> 1) & (old ^ bits)) ||	/* a locked bit changes */
	    (old & SECURE_ALL_LOCKS & ~bits) ||			/* a lock is taken off */
	    (bits & ~(SECURE_ALL_LOCKS | SECURE_ALL_BITS)) ||
	    !capable(CAP_SETPCAP))
		return -EPERM;
	c->securebits = (uint8_t)bits;
	return 0;
}

static int set_keepcaps(struct caps *c, uint32_t on)
{
	if (on > 1)
		return -EINVAL;
	if (c->securebits & SECBIT(SECURE_KEEP_CAPS + 1))	/* locked */
		return -EPERM;
	if (on)
		c->securebits |= SECBIT(SECURE_KEEP_CAPS);
	else
		c->securebits &= (uint8_t)~SECBIT(SECURE_KEEP_CAPS);
	return 0;
}

/* PR_CAP_AMBIENT: what arg2 says to capability arg3. */
static int ambient(struct caps *c, uint32_t what, uint32_t cap, uint32_t arg4, uint32_t arg5)
{
	if (what == PR_CAP_AMBIENT_CLEAR_ALL) {
		if (cap | arg4 | arg5)
			return -EINVAL;
		c->ambient = 0;
		return 0;
	}
	if (!cap_valid(cap) || arg4 || arg5)
		return -EINVAL;
	if (what == PR_CAP_AMBIENT_IS_SET)
		return has(c->ambient, (int)cap);
	if (what == PR_CAP_AMBIENT_LOWER) {
		c->ambient &= ~CAP_TO_MASK(cap);
		return 0;
	}
	if (what != PR_CAP_AMBIENT_RAISE)
		return -EINVAL;
	if (!has(c->permitted, (int)cap) || !has(c->inheritable, (int)cap) ||
	    (c->securebits & SECBIT(SECURE_NO_CAP_AMBIENT_RAISE)))
		return -EPERM;
	c->ambient |= CAP_TO_MASK(cap);
	return 0;
}

int caps_prctl(uint32_t option, uint32_t arg2, uint32_t arg3, uint32_t arg4, uint32_t arg5)
{
	struct caps *c = &current()->caps;
	switch (option) {
	case PR_CAPBSET_READ:
		return cap_valid(arg2) ? has(c->bounding, (int)arg2) : -EINVAL;
	case PR_CAPBSET_DROP:
		if (!capable(CAP_SETPCAP))
			return -EPERM;
		if (!cap_valid(arg2))
			return -EINVAL;
		c->bounding &= ~CAP_TO_MASK(arg2);
		return 0;
	case PR_GET_SECUREBITS:
		return c->securebits;
	case PR_SET_SECUREBITS:
		return set_securebits(c, arg2);
	case PR_GET_KEEPCAPS:
		return (c->securebits & SECBIT(SECURE_KEEP_CAPS)) != 0;
	case PR_SET_KEEPCAPS:
		return set_keepcaps(c, arg2);
	case PR_CAP_AMBIENT:
		return ambient(c, arg2, arg3, arg4, arg5);
	default:
		return -ENOSYS;
	}
}

/* ---- capget and capset ------------------------------------------------ */

/* How many words each set takes in this header's version, or 0 for a
 * version Linux does not know (it then writes its own into the header). */
static int cap_words(struct __user_cap_header_struct *uh)
{
	uint32_t version;
	if (copy_from_user(&version, &uh->version, sizeof(version)) < 0)
		return -EFAULT;
	if (version == _LINUX_CAPABILITY_VERSION_1)
		return 1;
	if (version == _LINUX_CAPABILITY_VERSION_2 || version == _LINUX_CAPABILITY_VERSION_3)
		return 2;
	uint32_t v3 = _LINUX_CAPABILITY_VERSION_3;
	return copy_to_user(&uh->version, &v3, sizeof(v3)) < 0 ? -EFAULT : 0;
}

/* The sets of task pid (0: the caller), word by word. */
static int cap_sets(int pid, struct __user_cap_data_struct d[2])
{
	struct proc *p = pid ? proc_get(pid) : current();
	if (!p)
		return -ESRCH;
	struct caps c = p->caps;
	if (pid)
		proc_put(p);
	for (int i = 0; i < 2; i++)
		d[i] = (struct __user_cap_data_struct){ (uint32_t)(c.effective >> (32 * i)),
							(uint32_t)(c.permitted >> (32 * i)),
							(uint32_t)(c.inheritable >> (32 * i)) };
	return 0;
}

/* Linux's capget, in its order: the version (a NULL data pointer only
 * asks for it: 0 even for an unknown one), the pid, the sets. */
int sys_capget(void *uheader, void *udata)
{
	struct __user_cap_header_struct *uh = uheader;
	struct __user_cap_data_struct d[2];
	int pid, words = cap_words(uh);

	if (words < 0)
		return words;
	if (!udata)
		return 0;
	if (words == 0)
		return -EINVAL;
	if (copy_from_user(&pid, &uh->pid, sizeof(pid)) < 0)
		return -EFAULT;
	if (pid < 0)
		return -EINVAL;
	int err = cap_sets(pid, d);
	if (err)
		return err;
	return copy_to_user(udata, d, (uint32_t)words * sizeof(d[0])) < 0 ? -EFAULT : 0;
}

/* Linux's cap_capset: the new sets against the old ones. */
static int capset_allowed(const struct caps *old, uint64_t eff, uint64_t prm, uint64_t inh)
{
	if (!has(old->effective, CAP_SETPCAP) && !subset(inh, old->inheritable | old->permitted))
		return -EPERM;
	if (!subset(inh, old->inheritable | old->bounding))
		return -EPERM;
	if (!subset(prm, old->permitted) || !subset(eff, prm))
		return -EPERM;
	return 0;
}

/* Linux's capset, in its order: the version, the pid (only the caller
 * itself: EPERM for any other), the data, the rules. Words a version
 * does not carry are 0; bits past CAP_LAST_CAP are dropped. */
int sys_capset(void *uheader, const void *udata)
{
	struct __user_cap_header_struct *uh = uheader;
	struct __user_cap_data_struct d[2] = { 0 };
	int pid, words = cap_words(uh);

	if (words <= 0)
		return words ? words : -EINVAL;
	if (copy_from_user(&pid, &uh->pid, sizeof(pid)) < 0)
		return -EFAULT;
	if (pid != 0 && pid != current()->pid)
		return -EPERM;
	if (copy_from_user(d, udata, (uint32_t)words * sizeof(d[0])) < 0)
		return -EFAULT;
	uint64_t eff = (d[0].effective | (uint64_t)d[1].effective << 32) & CAP_VALID;
	uint64_t prm = (d[0].permitted | (uint64_t)d[1].permitted << 32) & CAP_VALID;
	uint64_t inh = (d[0].inheritable | (uint64_t)d[1].inheritable << 32) & CAP_VALID;
	struct caps *c = &current()->caps;
	int err = capset_allowed(c, eff, prm, inh);
	if (err)
		return err;
	c->effective = eff;
	c->permitted = prm;
	c->inheritable = inh;
	c->ambient &= prm & inh;	/* ambient stays inside both */
	return 0;
}
