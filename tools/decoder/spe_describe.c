// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * Field interpretation for Arm SPE packets: Operation Type classes
 * (D18.2.7), event names (D18.2.6), index names (D18.2.1-D18.2.3) and a
 * one-line packet description.
 */
#include <stdio.h>
#include <string.h>

#include <arm_spe/spe_decoder.h>

int spe_op_decode(unsigned int op_class, unsigned int s, struct spe_op *op)
{
	memset(op, 0, sizeof(*op));
	s &= 0xffu;

	switch (op_class) {
	case SPE_OP_CLASS_OTHER:
		if ((s & SPE_OP_OTHER_MASK) == SPE_OP_OTHER_VAL) {
			/* Other: 0b00000xxx, ASE/FP/COND */
			op->kind = SPE_OP_OTHER;
			op->ase = !!(s & SPE_OP_OTHER_ASE);
			op->fp = !!(s & SPE_OP_OTHER_FP);
			op->cond = !!(s & SPE_OP_OTHER_COND);
		} else if ((s & SPE_OP_SVE_DP_MASK) == SPE_OP_SVE_DP_VAL) {
			/* Data processing, SVE vector: 0b0xxx1xx0, EVL/PRED/FP */
			op->kind = SPE_OP_SVE_DP;
			op->evl = SPE_OP_EVL(s);
			op->pred = !!(s & SPE_OP_SVE_PRED);
			op->fp = !!(s & SPE_OP_SVE_FP);
		} else if ((s & SPE_OP_SME_DP_MASK) == SPE_OP_SME_DP_VAL) {
			/* Data processing, SME array: 0b1xxx1xx0, ETS/FP */
			op->kind = SPE_OP_SME_DP;
			op->ets = SPE_OP_SME_ETS(s);
			op->fp = !!(s & SPE_OP_SME_FP);
			/* ETS 0b1100-0b1110 reserved */
			op->reserved = op->ets > 0xb && op->ets != SPE_OP_SME_ETS_WHOLE_ZA;
		} else {
			op->reserved = 1;
		}
		break;
	case SPE_OP_CLASS_LDST:
		op->is_ldst = 1;
		op->store = s & SPE_OP_LDST_BIT;
		switch (s & 0xfeu) {
		case SPE_OP_LS_GP:
			op->kind = SPE_OP_LDST_GP;
			return op->kind;
		case SPE_OP_LS_SIMD_FP:
			op->kind = SPE_OP_LDST_SIMD_FP;
			return op->kind;
		case SPE_OP_LS_UNSPEC:
			op->kind = SPE_OP_LDST_UNSPEC;
			return op->kind;
		case SPE_OP_LS_MTE_TAG:
			op->kind = SPE_OP_LDST_MTE_TAG;
			return op->kind;
		case SPE_OP_LS_NV2:
			op->kind = SPE_OP_LDST_NV2;
			return op->kind;
		case SPE_OP_LS_MEMCPY:
			op->kind = SPE_OP_LDST_MEMCPY;
			return op->kind;
		default:
			break;
		}
		if (s == SPE_OP_LS_MEMSET) {
			/* Memory Set: 0b00100101, always a store */
			op->kind = SPE_OP_LDST_MEMSET;
		} else if ((s & SPE_OP_LS_EXT_MASK) == SPE_OP_LS_EXT_VAL) {
			/* extended: 0b000xxx1x, AR/EXCL/AT/LDST */
			op->kind = SPE_OP_LDST_EXT;
			op->ar = !!(s & SPE_OP_LS_AR);
			op->excl = !!(s & SPE_OP_LS_EXCL);
			op->at = !!(s & SPE_OP_LS_AT);
		} else if ((s & SPE_OP_LS_SVE_MASK) == SPE_OP_LS_SVE_VAL) {
			/* SVE or SME: 0bxxxx1x0x, SG/EVL/PRED/LDST */
			op->kind = SPE_OP_LDST_SVE_SME;
			op->sg = !!(s & SPE_OP_LS_SVE_SG);
			op->evl = SPE_OP_EVL(s);
			op->pred = !!(s & SPE_OP_LS_SVE_PRED);
		} else if ((s & SPE_OP_LS_GCS_MASK) == SPE_OP_LS_GCS_VAL) {
			/* GCS: 0b01000x0x, COMM/LDST */
			op->kind = SPE_OP_LDST_GCS;
			op->comm = !!(s & SPE_OP_LS_GCS_COMM);
		} else {
			op->kind = SPE_OP_RESERVED;
			op->is_ldst = 0;
			op->store = 0;
			op->reserved = 1;
		}
		break;
	case SPE_OP_CLASS_BRANCH:
		if ((s & SPE_OP_BR_MASK) == SPE_OP_BR_VAL) {
			/* Branch: 0b000xxxxx, CR/GCS/IND/COND */
			op->kind = SPE_OP_BRANCH;
			op->cr = SPE_OP_BR_CR(s);
			op->gcs = !!(s & SPE_OP_BR_GCS);
			op->ind = !!(s & SPE_OP_BR_IND);
			op->cond = !!(s & SPE_OP_BR_COND);
		} else {
			op->reserved = 1;
		}
		break;
	default:
		op->reserved = 1;	/* CLASS 0b11 */
		break;
	}
	return op->kind;
}

static const char *const pkt_names[SPE_PKT_NR_TYPES] = {
	[SPE_PKT_BAD] = "bad",		[SPE_PKT_PAD] = "pad",
	[SPE_PKT_END] = "end",		[SPE_PKT_TIMESTAMP] = "timestamp",
	[SPE_PKT_ADDRESS] = "address",	[SPE_PKT_COUNTER] = "counter",
	[SPE_PKT_CONTEXT] = "context",	[SPE_PKT_DATA_SOURCE] = "data-source",
	[SPE_PKT_EVENTS] = "events",	[SPE_PKT_OP_TYPE] = "op-type",
	[SPE_PKT_ALIGN] = "alignment",	[SPE_PKT_UNKNOWN] = "unknown",
};

const char *spe_pkt_type_name(unsigned int type)
{
	return type < SPE_PKT_NR_TYPES ? pkt_names[type] : "invalid";
}

static const char *const op_names[SPE_OP_NR_KINDS] = {
	[SPE_OP_RESERVED] = "reserved",		[SPE_OP_OTHER] = "other",
	[SPE_OP_SVE_DP] = "sve-dp",		[SPE_OP_SME_DP] = "sme-dp",
	[SPE_OP_LDST_GP] = "ldst-gp",		[SPE_OP_LDST_SIMD_FP] = "ldst-simd-fp",
	[SPE_OP_LDST_UNSPEC] = "ldst-unspec",	[SPE_OP_LDST_MTE_TAG] = "ldst-mte-tag",
	[SPE_OP_LDST_NV2] = "ldst-nv2-sysreg",	[SPE_OP_LDST_EXT] = "ldst-ext",
	[SPE_OP_LDST_SVE_SME] = "ldst-sve-sme",	[SPE_OP_LDST_MEMCPY] = "ldst-memcpy",
	[SPE_OP_LDST_MEMSET] = "ldst-memset",	[SPE_OP_LDST_GCS] = "ldst-gcs",
	[SPE_OP_BRANCH] = "branch",
};

const char *spe_op_kind_name(unsigned int kind)
{
	return kind < SPE_OP_NR_KINDS ? op_names[kind] : "invalid";
}

static const char *const ev_names[32] = {
	[SPE_EV_EXCEPTION] = "exception",	[SPE_EV_RETIRED] = "retired",
	[SPE_EV_L1D_ACCESS] = "l1d-access",	[SPE_EV_L1D_REFILL] = "l1d-refill",
	[SPE_EV_TLB_ACCESS] = "tlb-access",	[SPE_EV_TLB_WALK] = "tlb-walk",
	[SPE_EV_NOT_TAKEN] = "not-taken",	[SPE_EV_MISPRED] = "mispredicted",
	[SPE_EV_LLC_ACCESS] = "llc-access",	[SPE_EV_LLC_MISS] = "llc-miss",
	[SPE_EV_REMOTE_ACCESS] = "remote-access", [SPE_EV_MISALIGNED] = "misaligned",
	[SPE_EV_TRANSACTIONAL] = "transactional",
	[SPE_EV_PARTIAL_PRED] = "partial-pred",	[SPE_EV_EMPTY_PRED] = "empty-pred",
	[SPE_EV_L2D_ACCESS] = "l2d-access",	[SPE_EV_L2D_MISS] = "l2d-miss",
	[SPE_EV_CACHE_MODIFIED] = "cache-data-modified",
	[SPE_EV_RECENTLY_FETCHED] = "recently-fetched",
	[SPE_EV_DATA_SNOOPED] = "data-snooped",
	[SPE_EV_STREAMING_SVE] = "streaming-sve", [SPE_EV_SMCU] = "smcu",
};

const char *spe_event_name(unsigned int bit)
{
	return bit < 32 ? ev_names[bit] : NULL;
}

const char *spe_addr_index_name(unsigned int index)
{
	static const char *const n[SPE_ADDR_IDX_NUM_ARCH] = {
		"pc", "br-tgt", "data-va", "data-pa", "prev-br-tgt",
	};

	return index < SPE_ADDR_IDX_NUM_ARCH ? n[index] : NULL;
}

const char *spe_counter_index_name(unsigned int index)
{
	static const char *const n[5] = {
		"total-lat", "issue-lat", "xlat-lat", NULL, "alt-issue-lat",
	};

	return index < 5 ? n[index] : NULL;
}

#define EMIT(...)							\
	do {								\
		int _r = snprintf(buf + (used < size ? used : size),	\
				  used < size ? size - used : 0, __VA_ARGS__); \
		if (_r > 0)						\
			used += (size_t)_r;				\
	} while (0)

static size_t describe_op(const struct spe_packet *pkt, char *buf, size_t size, size_t used)
{
	struct spe_op op;

	spe_op_decode(pkt->index, (unsigned int)pkt->payload, &op);
	EMIT("%s", spe_op_kind_name(op.kind));
	switch (op.kind) {
	case SPE_OP_OTHER:
		EMIT("%s%s%s", op.ase ? " ase" : "", op.fp ? " fp" : "", op.cond ? " cond" : "");
		break;
	case SPE_OP_SVE_DP:
		if (op.evl == 7)
			EMIT(" evl=>2048");
		else
			EMIT(" evl=%u", SPE_OP_EVL_BITS(op.evl));
		EMIT("%s%s", op.pred ? " pred" : "", op.fp ? " fp" : "");
		break;
	case SPE_OP_SME_DP:
		if (op.ets == SPE_OP_SME_ETS_WHOLE_ZA)
			EMIT(" ets=za");
		else if (op.ets <= 0xb)
			EMIT(" ets=%lu", 128ul << op.ets);
		else
			EMIT(" ets=reserved(%u)", op.ets);
		EMIT("%s", op.fp ? " fp" : "");
		break;
	case SPE_OP_LDST_EXT:
		EMIT("%s%s%s", op.at ? " at" : "", op.excl ? " excl" : "", op.ar ? " ar" : "");
		break;
	case SPE_OP_LDST_SVE_SME:
		if (op.evl == 7)
			EMIT(" evl=>2048");
		else
			EMIT(" evl=%u", SPE_OP_EVL_BITS(op.evl));
		EMIT("%s%s", op.pred ? " pred" : "", op.sg ? " sg" : "");
		break;
	case SPE_OP_LDST_GCS:
		EMIT("%s", op.comm ? " comm" : "");
		break;
	case SPE_OP_BRANCH: {
		static const char *const cr[4] = { "", " call", " ret", " nocall" };

		EMIT("%s%s%s%s", op.cond ? " cond" : "", op.ind ? " ind" : "",
		     cr[op.cr], op.gcs ? " gcs" : "");
		break;
	}
	case SPE_OP_RESERVED:
		EMIT(" class=%u subclass=0x%02x", pkt->index, (unsigned int)pkt->payload);
		break;
	default:
		break;
	}
	if (op.is_ldst)
		EMIT(op.store ? " st" : " ld");
	return used;
}

int spe_pkt_describe(const struct spe_packet *pkt, char *buf, size_t size)
{
	size_t used = 0;
	uint64_t p = pkt->payload;
	unsigned int i;

	if (size)
		buf[0] = '\0';
	switch (pkt->type) {
	case SPE_PKT_PAD:
		EMIT("PAD");
		break;
	case SPE_PKT_END:
		EMIT("END");
		break;
	case SPE_PKT_TIMESTAMP:
		EMIT("TS %llu", (unsigned long long)p);
		break;
	case SPE_PKT_ADDRESS: {
		const char *n = spe_addr_index_name(pkt->index);

		if (n)
			EMIT("ADDR %s", n);
		else
			EMIT("ADDR %s(%u)", pkt->reserved ? "reserved" : "impdef", pkt->index);
		switch (pkt->index) {
		case SPE_ADDR_IDX_PC:
		case SPE_ADDR_IDX_BR_TGT:
		case SPE_ADDR_IDX_PREV_BR_TGT:
			EMIT(" 0x%llx el%u ns=%u nse=%u",
			     (unsigned long long)spe_addr_va_sext(p), SPE_ADDR_EL(p),
			     SPE_ADDR_NS(p), SPE_ADDR_NSE(p));
			break;
		case SPE_ADDR_IDX_DATA_VA:
			EMIT(" 0x%llx tag=0x%02x", (unsigned long long)spe_addr_va_sext(p),
			     SPE_ADDR_TAG(p));
			break;
		case SPE_ADDR_IDX_DATA_PA:
			EMIT(" 0x%llx ns=%u nse=%u ch=%u pat=0x%x",
			     (unsigned long long)SPE_ADDR_ADDR(p), SPE_ADDR_NS(p),
			     SPE_ADDR_NSE(p), SPE_ADDR_CH(p), SPE_ADDR_PAT(p));
			break;
		default:
			EMIT(" 0x%016llx", (unsigned long long)p);
			break;
		}
		break;
	}
	case SPE_PKT_COUNTER: {
		const char *n = spe_counter_index_name(pkt->index);

		if (n)
			EMIT("COUNT %s %llu", n, (unsigned long long)p);
		else
			EMIT("COUNT %s(%u) %llu", pkt->reserved ? "reserved" : "impdef",
			     pkt->index, (unsigned long long)p);
		break;
	}
	case SPE_PKT_CONTEXT:
		if (pkt->reserved)
			EMIT("CONTEXT reserved(%u) 0x%llx", pkt->index, (unsigned long long)p);
		else
			EMIT("CONTEXT el%u 0x%llx", pkt->index + 1, (unsigned long long)p);
		break;
	case SPE_PKT_DATA_SOURCE:
		EMIT("DATA-SOURCE %s0x%llx", pkt->reserved ? "reserved-size " : "",
		     (unsigned long long)p);
		break;
	case SPE_PKT_EVENTS:
		EMIT("EVENTS 0x%llx", (unsigned long long)p);
		for (i = 0; i < 64; i++) {
			const char *n;

			if (!(p & (1ull << i)))
				continue;
			n = spe_event_name(i);
			if (n)
				EMIT(" %s", n);
			else
				EMIT(" e%u", i);
		}
		break;
	case SPE_PKT_OP_TYPE:
		EMIT("OP ");
		used = describe_op(pkt, buf, size, used);
		break;
	case SPE_PKT_ALIGN:
		if (pkt->reserved)
			EMIT("ALIGN reserved size=0");
		else
			EMIT("ALIGN %lu", SPE_ALIGN_BYTES(pkt->index));
		break;
	case SPE_PKT_UNKNOWN:
		EMIT("UNKNOWN hdr=0x%02x", pkt->hdr0);
		if (pkt->hdr_len == 2)
			EMIT(" 0x%02x", pkt->hdr1);
		EMIT(" len=%u", pkt->len);
		if (pkt->payload_len)
			EMIT(" payload=0x%llx", (unsigned long long)p);
		break;
	default:
		EMIT("BAD");
		break;
	}
	return (int)used;
}
