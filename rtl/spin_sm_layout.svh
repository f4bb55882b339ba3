// spin_sm_layout.svh: the layout of a special message (docs/microarchitecture.md,
// 12.1), included inside every SPIN module after its parameters NumPorts,
// NumVcs, FlitW, IdW and CycW, so that one text says where each field is.
// C twin: cmodel/sm_fmt.h (sm_fmt_make).  Fields, least significant first:
//   sender[IdW] t[CycW] x[CycW]
//   and with NumVcs > 1: fk[SmFkW] fork[SmK][SmChW]
// t is a probe's cyc or the others' delay; x a probe's p0 (its low SmPortW
// bits) or the others' lc.  SmW is the bits that carry a field; the data
// word's bits above it are 0.

localparam int unsigned SmPortW   = $clog2(NumPorts);
localparam int unsigned SmTLsb    = IdW;
localparam int unsigned SmXLsb    = SmTLsb + CycW;
localparam int unsigned SmFkLsb   = SmXLsb + CycW;
localparam int unsigned SmChW     = NumVcs > 1 ? $clog2(NumVcs) : 1;   // 1: unused with 1 VC
localparam int unsigned SmForkLsb = SmFkLsb + (NumVcs > 1 ? spin_pkg::SmFkW : 0);
localparam int unsigned SmKFit    = FlitW > SmForkLsb ? (FlitW - SmForkLsb) / SmChW : 0;
localparam int unsigned SmK       = NumVcs > 1 ? (SmKFit > 63 ? 63 : SmKFit) : 0;
localparam int unsigned SmW       = SmForkLsb + SmK * SmChW;
// the limit the widths set (12.1): no loop takes more than SmCycMax cycles
localparam int unsigned SmCycMax  = ((1 << CycW) - 3) / 2;
