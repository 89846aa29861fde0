/*
 * tracekit/tracepoint.h: static tracepoints for C and C++ programs, declared
 * like the kernel's (include/linux/tracepoint.h, include/trace/events/sched.h).
 *
 * A trace header declares events with TRACE_EVENT(name, TP_PROTO, TP_ARGS,
 * TP_STRUCT__entry, TP_fast_assign, TP_printk), includes this file inside its
 * guard and <tracekit/define_trace.h> at its bottom, outside the guard.  Code
 * calls trace_<name>(args).  Exactly one .c file defines CREATE_TRACE_POINTS
 * before including the trace header: there define_trace.h turns the same
 * declarations into the record layout, the writer, the format description
 * and the tracepoint objects.  Link with -ltracekit (pkg-config tracekit).
 *
 * A disabled tracepoint costs one load and a branch not taken.
 * `tracekit record -e 'myapp:*' -- ./myapp` enables them; register_trace_<name>
 * attaches a callback of the program's own (several per tracepoint).
 * -DTRACEKIT_DISABLE compiles every tracepoint away (no library needed).
 *
 * Everything below named tk_* or __tk_* is the contract between the macros
 * and libtracekit, not an API to call directly.
 */
#ifndef TRACEKIT_TRACEPOINT_H
#define TRACEKIT_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TK_STR1(...) #__VA_ARGS__
#define TK_STR(...) TK_STR1(__VA_ARGS__)
#define TK_PARAMS(...) __VA_ARGS__
#define TK_UNLIKELY(x) __builtin_expect(!!(x), 0)

#define TP_PROTO(...) __VA_ARGS__
#define TP_ARGS(...) __VA_ARGS__
#define TP_CONDITION(...) __VA_ARGS__

/* Sizes of the pointer-free descriptions (kept in the ELF section "tracekit_events"). */
#define TK_NAME_MAX 64
#define TK_TYPE_MAX 64
#define TK_FIELDS_MAX 32
#define TK_PRINT_MAX 1024
#define TK_CLASS_MAGIC 0x6c63746bu	/* "tkcl" */
#define TK_EVENT_MAGIC 0x7665746bu	/* "tkev" */
#define TK_DESC_VERSION 1

enum tk_field_kind {
	TK_FIELD_PLAIN = 0,	/* __field */
	TK_FIELD_ARRAY = 1,	/* __array: size / elem_size elements */
	TK_FIELD_DYNAMIC = 2,	/* __string, __dynamic_array: a 4-byte __data_loc word */
};

struct tk_field_desc {
	char type[TK_TYPE_MAX];
	char name[TK_NAME_MAX];
	uint16_t offset, size, elem_size;
	uint8_t is_signed, kind;
};

/* An event class: the record layout and print format shared by its events. */
struct tk_class_desc {
	uint32_t magic;		/* TK_CLASS_MAGIC */
	uint16_t version, nfields;
	uint32_t entry_size, pad;
	char system[TK_NAME_MAX];
	char name[TK_NAME_MAX];
	char print_fmt[TK_PRINT_MAX];
	struct tk_field_desc fields[TK_FIELDS_MAX];
};

/* An event: its name and class (DEFINE_EVENT; TRACE_EVENT is a class of one). */
struct tk_event_desc {
	uint32_t magic;		/* TK_EVENT_MAGIC */
	uint16_t version, pad;
	char system[TK_NAME_MAX];
	char name[TK_NAME_MAX];
	char class_name[TK_NAME_MAX];
};

/* The kernel's common fields, first in every record. */
struct tk_entry_header {
	uint16_t type;
	uint8_t flags;
	uint8_t preempt_count;
	int32_t pid;
};

/* tk_tracepoint.state bits */
#define TK_TP_RECORD 1u		/* a recorder wants it */
#define TK_TP_PROBES 2u		/* callbacks are registered */

/* A callback of register_trace_<name>; a tracepoint's list ends with fn == NULL. */
struct tk_tp_probe {
	void (*fn)(void);
	void *data;
};

struct tk_tracepoint {
	unsigned state;		/* the one load of a disabled tracepoint */
	uint16_t id;		/* this process's number for it, set at registration */
	uint16_t registered;
	const struct tk_class_desc *cls;
	const struct tk_event_desc *ev;
	struct tk_tp_probe *probes;	/* replaced whole, never changed in place */
	struct tk_tracepoint *next;
};

/* libtracekit */
void tk_tp_register(struct tk_tracepoint *tp);
void tk_tp_unregister(struct tk_tracepoint *tp);
void *tk_tp_reserve(struct tk_tracepoint *tp, uint32_t size);
void tk_tp_commit(struct tk_tracepoint *tp, void *entry);
int tk_tp_probe_add(struct tk_tracepoint *tp, void (*fn)(void), void *data);
int tk_tp_probe_del(struct tk_tracepoint *tp, void (*fn)(void), void *data);

#define TK_STRING_MAX 1024	/* longer __string values are cut (the record must fit a page) */

#define TK_IS_SIGNED(type) ((type)-1 < (type)1)

/* strnlen without asking the program for _GNU_SOURCE */
static inline uint32_t tk_strlen_max(const char *s, uint32_t max)
{
	uint32_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

#ifdef __cplusplus
#define TK_EXTERN_C extern "C"
#else
#define TK_EXTERN_C extern
#endif

/*
 * Every expansion ends in a declaration without its ';', so the ';' after
 * TRACE_EVENT(...); (kernel style) ends it: no empty declaration for -pedantic.
 */
#define TK_ABSORB_SEMICOLON TK_EXTERN_C int __tk_absorb_semicolon

#ifdef __cplusplus
}
#endif

#endif /* TRACEKIT_TRACEPOINT_H */

/*
 * The declaring pass: what every file including a trace header sees.  Outside
 * the guard, as in the kernel: define_trace.h undefines these after its passes
 * so the next trace header in the same file declares again.
 */
#ifndef TRACE_EVENT

#ifdef TRACEKIT_DISABLE

#define DECLARE_TRACE_CONDITION(name, proto, args, cond)				\
	_Pragma("GCC diagnostic push")							\
	_Pragma("GCC diagnostic ignored \"-Wunused-parameter\"")			\
	static inline void trace_##name(proto) { }					\
	static inline int trace_##name##_enabled(void) { return 0; }			\
	static inline int register_trace_##name(void (*probe)(void *__data, proto),	\
						void *data)				\
	{ (void)probe; (void)data; return -1; }						\
	static inline int unregister_trace_##name(void (*probe)(void *__data, proto),	\
						  void *data)				\
	{ (void)probe; (void)data; return -1; }						\
	_Pragma("GCC diagnostic pop")							\
	TK_ABSORB_SEMICOLON

#else

#define DECLARE_TRACE_CONDITION(name, proto, args, cond)				\
	TK_EXTERN_C struct tk_tracepoint __tracepoint_##name;				\
	TK_EXTERN_C void __tk_fire_##name(proto);					\
	static inline void trace_##name(proto)						\
	{										\
		if (TK_UNLIKELY(__atomic_load_n(&__tracepoint_##name.state,		\
						__ATOMIC_RELAXED)) && (cond))		\
			__tk_fire_##name(args);						\
	}										\
	static inline int trace_##name##_enabled(void)					\
	{										\
		return __atomic_load_n(&__tracepoint_##name.state, __ATOMIC_RELAXED) != 0; \
	}										\
	static inline int register_trace_##name(void (*probe)(void *__data, proto),	\
						void *data)				\
	{										\
		return tk_tp_probe_add(&__tracepoint_##name, (void (*)(void))probe, data); \
	}										\
	static inline int unregister_trace_##name(void (*probe)(void *__data, proto),	\
						  void *data)				\
	{										\
		return tk_tp_probe_del(&__tracepoint_##name, (void (*)(void))probe, data); \
	}										\
	TK_ABSORB_SEMICOLON

#endif /* TRACEKIT_DISABLE */

#define DECLARE_TRACE(name, proto, args)						\
	DECLARE_TRACE_CONDITION(name, TK_PARAMS(proto), TK_PARAMS(args), 1)

#define DECLARE_EVENT_CLASS(name, proto, args, tstruct, assign, print) TK_ABSORB_SEMICOLON
#define DEFINE_EVENT(template, name, proto, args)					\
	DECLARE_TRACE(name, TK_PARAMS(proto), TK_PARAMS(args))
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)			\
	DECLARE_TRACE_CONDITION(name, TK_PARAMS(proto), TK_PARAMS(args), TK_PARAMS(cond))
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)				\
	DECLARE_TRACE(name, TK_PARAMS(proto), TK_PARAMS(args))
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print)	\
	DECLARE_TRACE_CONDITION(name, TK_PARAMS(proto), TK_PARAMS(args), TK_PARAMS(cond))

#endif /* TRACE_EVENT */
