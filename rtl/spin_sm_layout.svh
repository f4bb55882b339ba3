// spin_sm_layout.svh: the layout of a special message (docs/microarchitecture.md,
// 12.1), included inside every SPIN module after its parameters NumPorts,
// NumVcs, FlitW, IdW, HopW and CycW, so that one text says where each field
// is.  C twin: cmodel/sm_fmt.h (sm_fmt_make).  Fields, least significant
// first:
//   sender[IdW] n[HopW] idx[HopW] t[CycW] lc[CycW] p0[SmPortW]
//   and with NumVcs > 1: fk[SmFkW] fork[SmK][SmChW]
// SmW is the bits that carry a field; the data word's bits above it are 0.

localparam int unsigned SmPortW   = $clog2(NumPorts);
localparam int unsigned SmNLsb    = IdW;
localparam int unsigned SmIdxLsb  = SmNLsb + HopW;
localparam int unsigned SmTLsb    = SmIdxLsb + HopW;
localparam int unsigned SmLcLsb   = SmTLsb + CycW;
localparam int unsigned SmP0Lsb   = SmLcLsb + CycW;
localparam int unsigned SmFkLsb   = SmP0Lsb + SmPortW;
localparam int unsigned SmChW     = NumVcs > 1 ? $clog2(NumVcs) : 1;   // 1: unused with 1 VC
localparam int unsigned SmForkLsb = SmFkLsb + (NumVcs > 1 ? spin_pkg::SmFkW : 0);
localparam int unsigned SmKFit    = FlitW > SmForkLsb ? (FlitW - SmForkLsb) / SmChW : 0;
localparam int unsigned SmK       = NumVcs > 1 ? (SmKFit > 63 ? 63 : SmKFit) : 0;
localparam int unsigned SmW       = SmForkLsb + SmK * SmChW;
// the limits the widths set (12.1): a probe with n = SmHopMax is dropped, and
// no loop takes more than SmCycMax cycles
localparam int unsigned SmHopMax  = (1 << HopW) - 1;
localparam int unsigned SmCycMax  = ((1 << CycW) - 3) / 2;
