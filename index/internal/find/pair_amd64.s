#include "textflag.h"

// func pairScan(s string, from, lo, hi int, a, b byte) (k int, mask uint32)
//
// Two steps of 32 places a loop: the second's loads go out with the
// first's.
TEXT ·pairScan(SB), NOSPLIT, $0-60
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), DX
	MOVQ from+16(FP), CX
	MOVQ lo+24(FP), R8
	MOVQ hi+32(FP), R9
	MOVBLZX a+40(FP), AX
	MOVBLZX b+41(FP), BX
	MOVQ AX, X0
	VPBROADCASTB X0, Y0
	MOVQ BX, X1
	VPBROADCASTB X1, Y1
	// The last k looked at: k+hi+32 <= len(s).
	MOVQ DX, R10
	SUBQ R9, R10
	SUBQ $32, R10
	// The last k of a double step: k+hi+64 <= len(s).
	MOVQ R10, R13
	SUBQ $32, R13
	LEAQ (SI)(R8*1), R11 // &s[lo]
	LEAQ (SI)(R9*1), R12 // &s[hi]

double:
	CMPQ CX, R13
	JGT  single
	VMOVDQU (R11)(CX*1), Y2
	VMOVDQU (R12)(CX*1), Y3
	VMOVDQU 32(R11)(CX*1), Y4
	VMOVDQU 32(R12)(CX*1), Y5
	VPCMPEQB Y0, Y2, Y2
	VPCMPEQB Y1, Y3, Y3
	VPCMPEQB Y0, Y4, Y4
	VPCMPEQB Y1, Y5, Y5
	VPAND Y2, Y3, Y3
	VPAND Y4, Y5, Y5
	VPOR Y3, Y5, Y6
	VPTEST Y6, Y6
	JNZ  either
	ADDQ $64, CX
	JMP  double

either:
	VPMOVMSKB Y3, AX
	TESTL AX, AX
	JNZ  found
	ADDQ $32, CX
	VPMOVMSKB Y5, AX
	JMP  found

single:
	CMPQ CX, R10
	JGT  done
	VMOVDQU (R11)(CX*1), Y2
	VMOVDQU (R12)(CX*1), Y3
	VPCMPEQB Y0, Y2, Y2
	VPCMPEQB Y1, Y3, Y3
	VPAND Y2, Y3, Y3
	VPMOVMSKB Y3, AX
	TESTL AX, AX
	JNZ  found
	ADDQ $32, CX
	JMP  single

found:
	VZEROUPPER
	MOVQ CX, k+48(FP)
	MOVL AX, mask+56(FP)
	RET

done:
	VZEROUPPER
	MOVQ CX, k+48(FP)
	MOVL $0, mask+56(FP)
	RET
