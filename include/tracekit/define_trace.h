/*
 * tracekit/define_trace.h: included at the bottom of a trace header, outside
 * its guard.  In the one file that defines CREATE_TRACE_POINTS it includes the
 * trace header again several times, each time with TRACE_EVENT and the field
 * macros meaning something else, as the kernel's define_trace.h does:
 *
 *   1. struct tk_entry_<class>: the record (common fields, then the fields)
 *   2. struct tk_dyn_<class> and its size function: where __string and
 *      __dynamic_array data go, after the fixed part
 *   3. the field count
 *   4. the class description (fields, offsets, print fmt) in the ELF section
 *      "tracekit_events", which `tracekit record` and `list --binary` read
 *   5. the writer: reserve, assign, commit
 *   6. per event: its description, the tracepoint object, the function the
 *      inline trace_<name>() calls when enabled, registration at load
 *
 * The trace header is found as TRACE_INCLUDE_PATH/TRACE_INCLUDE_FILE.h (or
 * TRACE_INCLUDE_FILE.h, or TRACE_SYSTEM.h) on the include path, so the
 * directory holding it must be given with -I, as in the kernel.
 */
#ifdef CREATE_TRACE_POINTS
#ifndef TRACEKIT_DISABLE

#undef CREATE_TRACE_POINTS

#ifndef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE TRACE_SYSTEM
#define TK_UNDEF_INCLUDE_FILE
#endif
#ifdef TRACE_INCLUDE_PATH
#define TK_INCLUDE(file) TK_STR(TRACE_INCLUDE_PATH/file.h)
#else
#define TK_INCLUDE(file) TK_STR(file.h)
#endif

#define TRACE_HEADER_MULTI_READ

#undef TRACE_EVENT
#undef TRACE_EVENT_CONDITION
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef DEFINE_EVENT_CONDITION
#undef DECLARE_TRACE
#undef DECLARE_TRACE_CONDITION

#define TRACE_EVENT(name, proto, args, tstruct, assign, print)				\
	DECLARE_EVENT_CLASS(name, TK_PARAMS(proto), TK_PARAMS(args), TK_PARAMS(tstruct),	\
			    TK_PARAMS(assign), TK_PARAMS(print));			\
	DEFINE_EVENT(name, name, TK_PARAMS(proto), TK_PARAMS(args))
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print)	\
	TRACE_EVENT(name, TK_PARAMS(proto), TK_PARAMS(args), TK_PARAMS(tstruct),	\
		    TK_PARAMS(assign), TK_PARAMS(print))
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)			\
	DEFINE_EVENT(template, name, TK_PARAMS(proto), TK_PARAMS(args))

#define TP_STRUCT__entry(...) __VA_ARGS__
#define TP_fast_assign(...) __VA_ARGS__
#define TP_printk(...) TK_STR(__VA_ARGS__)

#ifdef __cplusplus
extern "C" {
#endif
_Pragma("GCC diagnostic push")
_Pragma("GCC diagnostic ignored \"-Wunused-parameter\"")
_Pragma("GCC diagnostic ignored \"-Wunused-function\"")

/* 1. the record */
#define __field(type, item) type item;
#define __array(type, item, len) type item[len];
#define __dynamic_array(type, item, len) uint32_t __data_loc_##item;
#define __string(item, src) uint32_t __data_loc_##item;
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)			\
	struct tk_entry_##call {							\
		struct tk_entry_header __tk_common;					\
		tstruct									\
	};										\
	TK_ABSORB_SEMICOLON
#define DEFINE_EVENT(template, name, proto, args) TK_ABSORB_SEMICOLON
#include TK_INCLUDE(TRACE_INCLUDE_FILE)
#undef __field
#undef __array
#undef __dynamic_array
#undef __string
#undef DECLARE_EVENT_CLASS

/* 2. the dynamic part: lengths and offsets, computed from the arguments */
#define __field(type, item)
#define __array(type, item, len)
#define __dynamic_array(type, item, len) uint32_t item;
#define __string(item, src) uint32_t item; const char *item##__tk_src;
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)			\
	struct tk_dyn_##call {								\
		uint32_t __tk_unused;							\
		tstruct									\
	};										\
	TK_ABSORB_SEMICOLON
#include TK_INCLUDE(TRACE_INCLUDE_FILE)
#undef __dynamic_array
#undef __string
#undef DECLARE_EVENT_CLASS

/* A length over 16 bits cannot be a __data_loc: it makes the record too big to write. */
#define __dynamic_array(type, item, len)						\
	{										\
		size_t __tk_l = (size_t)(len) * sizeof(type);				\
		if (__tk_l > 0xffff)							\
			__tk_l = 0x10000;						\
		__tk_d->item = (uint32_t)(__tk_l << 16) | __tk_off;			\
		__tk_off += (uint32_t)__tk_l;						\
	}
#define __string(item, src)								\
	{										\
		const char *__tk_s = (src);						\
		uint32_t __tk_l;							\
		if (!__tk_s)								\
			__tk_s = "(null)";						\
		__tk_l = tk_strlen_max(__tk_s, TK_STRING_MAX - 1) + 1;			\
		__tk_d->item##__tk_src = __tk_s;					\
		__tk_d->item = (__tk_l << 16) | __tk_off;				\
		__tk_off += __tk_l;							\
	}
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)			\
	static inline uint32_t __tk_dyn_size_##call(struct tk_dyn_##call *__tk_d, proto)	\
	{										\
		uint32_t __tk_off = (uint32_t)sizeof(struct tk_entry_##call);		\
		(void)__tk_d;								\
		tstruct									\
		return __tk_off;							\
	}										\
	TK_ABSORB_SEMICOLON
#include TK_INCLUDE(TRACE_INCLUDE_FILE)
#undef __field
#undef __array
#undef __dynamic_array
#undef __string
#undef DECLARE_EVENT_CLASS

/* 3. how many fields */
#define __field(type, item) +1
#define __array(type, item, len) +1
#define __dynamic_array(type, item, len) +1
#define __string(item, src) +1
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)			\
	enum { __tk_nfields_##call = 0 tstruct };					\
	TK_ABSORB_SEMICOLON
#include TK_INCLUDE(TRACE_INCLUDE_FILE)
#undef __field
#undef __array
#undef __dynamic_array
#undef __string
#undef DECLARE_EVENT_CLASS

/* 4. the description; in TP_printk __entry is REC and __get_str stays text, as in the kernel */
#define TK_SECTION __attribute__((used, section("tracekit_events"), aligned(8)))
#define __field(type, item)								\
	{ #type, #item, offsetof(__tk_e, item), sizeof(type), sizeof(type),		\
	  TK_IS_SIGNED(type), TK_FIELD_PLAIN },
#define __array(type, item, len)							\
	{ #type, #item, offsetof(__tk_e, item), sizeof(((__tk_e *)0)->item), sizeof(type), \
	  TK_IS_SIGNED(type), TK_FIELD_ARRAY },
#define __dynamic_array(type, item, len)						\
	{ #type, #item, offsetof(__tk_e, __data_loc_##item), 4, sizeof(type),		\
	  TK_IS_SIGNED(type), TK_FIELD_DYNAMIC },
#define __string(item, src)								\
	{ "char", #item, offsetof(__tk_e, __data_loc_##item), 4, 1, TK_IS_SIGNED(char),	\
	  TK_FIELD_DYNAMIC },
#define __entry REC
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)			\
	static const struct tk_class_desc *__tk_class_##call(void)			\
	{										\
		typedef struct tk_entry_##call __tk_e;					\
		static const struct tk_class_desc __tk_desc TK_SECTION = {		\
			TK_CLASS_MAGIC, TK_DESC_VERSION, __tk_nfields_##call,		\
			(uint32_t)sizeof(__tk_e), 0, TK_STR(TRACE_SYSTEM), #call,	\
			print, { tstruct }						\
		};									\
		return &__tk_desc;							\
	}										\
	TK_ABSORB_SEMICOLON
#include TK_INCLUDE(TRACE_INCLUDE_FILE)
#undef __entry
#undef __field
#undef __array
#undef __dynamic_array
#undef __string
#undef DECLARE_EVENT_CLASS

/* 5. the writer */
#define __get_dynamic_array(item)							\
	((void *)((char *)__entry + (__entry->__data_loc_##item & 0xffff)))
#define __get_dynamic_array_len(item) (__entry->__data_loc_##item >> 16)
#define __get_str(item) ((char *)__get_dynamic_array(item))
/* __assign_str(item) as the kernel has it now, __assign_str(item, src) as it had it before. */
#define __assign_str(...) __tk_assign_str(__VA_ARGS__, 0)
#define __tk_assign_str(item, ...)							\
	do {										\
		uint32_t __tk_l = __tk_d.item >> 16;					\
		memcpy(__get_str(item), __tk_d.item##__tk_src, __tk_l - 1);		\
		__get_str(item)[__tk_l - 1] = '\0';					\
	} while (0)
#define __field(type, item)
#define __array(type, item, len)
#define __dynamic_array(type, item, len) __entry->__data_loc_##item = __tk_d.item;
#define __string(item, src) __entry->__data_loc_##item = __tk_d.item;
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)			\
	static void __tk_write_##call(struct tk_tracepoint *__tk_tp, proto)		\
	{										\
		struct tk_dyn_##call __tk_d;						\
		uint32_t __tk_size = __tk_dyn_size_##call(&__tk_d, args);		\
		struct tk_entry_##call *__entry =					\
			(struct tk_entry_##call *)tk_tp_reserve(__tk_tp, __tk_size);	\
		if (!__entry)								\
			return;								\
		tstruct									\
		{ assign }								\
		tk_tp_commit(__tk_tp, __entry);						\
	}										\
	TK_ABSORB_SEMICOLON
#include TK_INCLUDE(TRACE_INCLUDE_FILE)
#undef __get_dynamic_array
#undef __get_dynamic_array_len
#undef __get_str
#undef __assign_str
#undef __tk_assign_str
#undef __field
#undef __array
#undef __dynamic_array
#undef __string
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT

/* 6. the tracepoints */
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print) TK_ABSORB_SEMICOLON
#define DEFINE_EVENT(template, name, proto, args)					\
	static const struct tk_event_desc __tk_event_##name TK_SECTION = {		\
		TK_EVENT_MAGIC, TK_DESC_VERSION, 0, TK_STR(TRACE_SYSTEM), #name, #template \
	};										\
	struct tk_tracepoint __tracepoint_##name;					\
	void __tk_fire_##name(proto)							\
	{										\
		struct tk_tracepoint *__tk_tp = &__tracepoint_##name;			\
		unsigned __tk_st = __atomic_load_n(&__tk_tp->state, __ATOMIC_RELAXED);	\
		if (__tk_st & TK_TP_PROBES) {						\
			struct tk_tp_probe *__tk_p =					\
				__atomic_load_n(&__tk_tp->probes, __ATOMIC_ACQUIRE);	\
			for (; __tk_p && __tk_p->fn; __tk_p++)				\
				((void (*)(void *, proto))__tk_p->fn)(__tk_p->data, args); \
		}									\
		if (__tk_st & TK_TP_RECORD)						\
			__tk_write_##template(__tk_tp, args);				\
	}										\
	__attribute__((constructor)) static void __tk_register_##name(void)		\
	{										\
		__tracepoint_##name.cls = __tk_class_##template();			\
		__tracepoint_##name.ev = &__tk_event_##name;				\
		tk_tp_register(&__tracepoint_##name);					\
	}										\
	__attribute__((destructor)) static void __tk_unregister_##name(void)		\
	{										\
		tk_tp_unregister(&__tracepoint_##name);					\
	}										\
	TK_ABSORB_SEMICOLON
#include TK_INCLUDE(TRACE_INCLUDE_FILE)

_Pragma("GCC diagnostic pop")
#ifdef __cplusplus
}
#endif

#undef TK_SECTION
#undef TP_STRUCT__entry
#undef TP_fast_assign
#undef TP_printk
#undef TRACE_EVENT
#undef TRACE_EVENT_CONDITION
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef DEFINE_EVENT_CONDITION
#undef TK_INCLUDE
#undef TRACE_HEADER_MULTI_READ
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#undef TK_UNDEF_INCLUDE_FILE

/* Another trace header included after this one in the same file creates its tracepoints too. */
#define CREATE_TRACE_POINTS

#endif /* TRACEKIT_DISABLE */
#endif /* CREATE_TRACE_POINTS */
