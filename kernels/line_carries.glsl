// Line carries of the rows and columns kernels (ScanDesc::carryIn, totals),
// read and written where those tensors lie: a header the host writes into
// aux before the dispatch (vkCmdUpdateBuffer), from word `start` (0 in
// rows_scan.comp; after the look-back's words in the one-pass kernels),
// holds the device addresses of line 0's carry-in and total and each
// tensor's three line strides, in accumulators, as 64-bit words (low word
// first; lib/recording.cpp lineCarriesHeader()). The carry-in enters at the
// line's root; the total is the root's value. Include after publication.glsl
// (ACC_WORDS, wordsOf, accOfWords).

layout(constant_id = VKSCAN_SPEC_LINE_CARRY_IN) const bool kLineCarryIn = false;
layout(constant_id = VKSCAN_SPEC_LINE_TOTALS) const bool kLineTotals = false;

// Words of the header: addresses of the carry-in and the totals, then the
// carry-in's strides and the totals'.
const uint kCarryAddressWord = 0u;
const uint kTotalsAddressWord = 2u;
const uint kCarryStridesWord = 4u;
const uint kTotalsStridesWord = 10u;

uint roundToVector(uint words) { return (words + 3u) & ~3u; }

uint auxWord(uint word) { return WordRef(addressOffset(p.auxAddr, OFFSET_T(word) * 4)).v; }

uvec2 headerPair(uint word) { return uvec2(auxWord(word), auxWord(word + 1u)); }

#ifdef VKSCAN_NO_INT64
// The low word of each stride, as with the push constants' strides
// (kernels/shared/scan_params.h).
ADDR_T headerAddress(uint word) { return headerPair(word); }
OFFSET_T headerStride(uint word) { return int(auxWord(word)); }
#else
ADDR_T headerAddress(uint word) { return packUint2x32(headerPair(word)); }
OFFSET_T headerStride(uint word) { return int64_t(packUint2x32(headerPair(word))); }
#endif

// The address of line `line`'s value in the tensor whose address and
// strides the header holds at words `address` and `strides`. Once per line
// or tile, so plain division serves.
ADDR_T lineValueAddress(uint start, uint address, uint strides, uint line) {
  uint i0 = line % p.lineSize[0];
  uint rest = line / p.lineSize[0];
  uint i1 = rest % p.lineSize[1];
  uint i2 = rest / p.lineSize[1];
  OFFSET_T offset = OFFSET_T(i0) * headerStride(start + strides) +
                    OFFSET_T(i1) * headerStride(start + strides + 2u) +
                    OFFSET_T(i2) * headerStride(start + strides + 4u);
  return addressOffset(headerAddress(start + address), offset * OFFSET_T(VKSCAN_ACC_SIZE));
}

// The carry into line `line`'s root: its carry-in, or the identity.
ACC_T rootCarry(uint start, uint line) {
  if (!kLineCarryIn) return identity();
  ADDR_T address = lineValueAddress(start, kCarryAddressWord, kCarryStridesWord, line);
  uvec2 words = uvec2(WordRef(address).v, 0u);
  if (ACC_WORDS == 2u) words.y = WordRef(addressOffset(address, OFFSET_T(4))).v;
  return accOfWords(words);
}

void storeLineTotal(uint start, uint line, ACC_T total) {
  if (!kLineTotals) return;
  ADDR_T address = lineValueAddress(start, kTotalsAddressWord, kTotalsStridesWord, line);
  uvec2 words = wordsOf(total);
  WordRef(address).v = words.x;
  if (ACC_WORDS == 2u) WordRef(addressOffset(address, OFFSET_T(4))).v = words.y;
}
