// spin_pkg: constants of the link format shared by every RTL module.
// The contract is docs/microarchitecture.md ("Link format"); C twin: cmodel/flit.h.
//
// Link word, LinkW = FlitW + 7 bits:
//   [FlitW-1:0]          data (head flit: dst in [15:0])
//   [FlitW+1:FlitW]      vc     downstream VC the flit is written into
//   [FlitW+2]            tail
//   [FlitW+3]            head
//   [FlitW+6:FlitW+4]    kind   0 idle, 1 flit, 2..5 reserved for SPIN messages
// Credit word, CredW = 3 bits: [1:0] vc, [2] valid.
`default_nettype none

package spin_pkg;
  localparam int unsigned CtlW   = 7;
  localparam int unsigned CredW  = 3;
  localparam int unsigned VcW    = 2;   // link field width: up to 4 VCs
  localparam int unsigned KindW  = 3;
  localparam int unsigned DstW   = 16;  // destination field of a head flit
  localparam int unsigned OccW   = 3;   // occupancy of one VC, 0..7
  localparam int unsigned MaxPktLen = 5;

  localparam logic [KindW-1:0] KindFlit = 3'd1;
endpackage

`default_nettype wire
