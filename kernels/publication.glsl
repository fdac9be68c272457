// Values the look-back kernels publish to each other in scratch (aux): each
// accumulator word is written once, by one atomic store, over a pattern
// (kUnpublished) the host filled in before the dispatch, so that a word read
// atomically is either that pattern or final, and no memory barrier has to
// order values against flags. Reads are atomic loads, not read-modify-writes
// (atomicOr(w, 0)): many tiles poll the same few words near a line's root,
// and loads of one address need not take turns as its read-modify-writes do.
// A value whose word happens to equal the pattern reads as silent; readers
// then compute it themselves, the same canonical sums, so the same bits. Indices count accumulators (publish,
// readPublished) or 32-bit words (loadWord, storeWord, the collision
// records) from aux.

// Matches kLookbackUnpublished in lib/plan/common.hpp. A signalling NaN, which no
// FP32 addition returns, and an unlikely integer.
const uint kUnpublished = 0x7FBADBADu;

#if VKSCAN_ACC_SIZE == 4
#define ACC_WORDS 1u
#else
#define ACC_WORDS 2u
#endif

uvec2 wordsOf(ACC_T value) {
#if defined(VKSCAN_TYPE_F32) || defined(VKSCAN_TYPE_F16)
  return uvec2(floatBitsToUint(value), 0u);
#elif defined(VKSCAN_TYPE_U32)
  return uvec2(uint(value), 0u);
#elif defined(VKSCAN_TYPE_F64)
  return unpackDouble2x32(value);
#elif defined(EMULATED_INT64)
  return value;
#else
  return uvec2(uint(value), uint(value >> 32));
#endif
}

ACC_T accOfWords(uvec2 words) {
#if defined(VKSCAN_TYPE_F32) || defined(VKSCAN_TYPE_F16)
  return uintBitsToFloat(words.x);
#elif defined(VKSCAN_TYPE_U32)
  return ACC_T(words.x);
#elif defined(VKSCAN_TYPE_F64)
  return packDouble2x32(words);
#elif defined(EMULATED_INT64)
  return words;
#else
  return ACC_T(uint64_t(words.x) | (uint64_t(words.y) << 32));
#endif
}

#extension GL_KHR_memory_scope_semantics : require

// Relaxed and device-wide: the kernels order values against their inputs and
// outputs with memoryBarrierBuffer() where they must (in place).
#define LOAD_RELAXED(word) \
  atomicLoad(word, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed)
#define STORE_RELAXED(word, value) \
  atomicStore(word, value, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed)
#ifdef VKSCAN_SSBO
layout(set = 0, binding = 2, std430) coherent buffer LookbackWords { uint lookbackWords[]; };

uint wordIndex(uint word) { return uint(int(p.auxAddr.x)) * ACC_WORDS + word; }
uint loadWord(uint word) { return LOAD_RELAXED(lookbackWords[wordIndex(word)]); }
void storeWord(uint word, uint value) { STORE_RELAXED(lookbackWords[wordIndex(word)], value); }
#else
layout(buffer_reference, scalar, buffer_reference_align = 4) coherent buffer CoherentWordRef {
  uint v;
};

CoherentWordRef wordRef(uint word) {
  return CoherentWordRef(addressOffset(p.auxAddr, OFFSET_T(word) * 4));
}
uint loadWord(uint word) { return LOAD_RELAXED(wordRef(word).v); }
void storeWord(uint word, uint value) { STORE_RELAXED(wordRef(word).v, value); }
#endif

void publish(uint index, ACC_T value) {
  uvec2 words = wordsOf(value);
  storeWord(index * ACC_WORDS, words.x);
  if (ACC_WORDS == 2u) storeWord(index * ACC_WORDS + 1u, words.y);
}

bool silentWords(uvec2 words) {
  return words.x == kUnpublished || (ACC_WORDS == 2u && words.y == kUnpublished);
}

// Whether the value at `index` is published, and if so the value.
bool readPublished(uint index, out ACC_T value) {
  uvec2 words = uvec2(loadWord(index * ACC_WORDS), 0u);
  if (ACC_WORDS == 2u) words.y = loadWord(index * ACC_WORDS + 1u);
  value = accOfWords(words);
  return !silentWords(words);
}

// At word `record`: a silent total as a selector and a payload, neither kUnpublished: which
// words hold the pattern (0: the first, 1: the second, 2: both), and the
// other word.
void recordCollision(uint record, ACC_T total) {
  uvec2 words = wordsOf(total);
  bool first = words.x == kUnpublished;
  bool second = ACC_WORDS == 2u && words.y == kUnpublished;
  uint selector = first ? (second ? 2u : 0u) : 1u;
  uint payload = first ? (second ? 0u : words.y) : words.x;
  storeWord(record, selector);
  storeWord(record + 1u, payload);
}

// Whether the collision record at word `record` is complete, and if so the total.
bool readCollision(uint record, out ACC_T total) {
  uint selector = loadWord(record);
  uint payload = loadWord(record + 1u);
  uvec2 words = selector == 0u   ? uvec2(kUnpublished, payload)
                : selector == 1u ? uvec2(payload, kUnpublished)
                                 : uvec2(kUnpublished);
  total = accOfWords(words);
  return selector != kUnpublished && payload != kUnpublished;
}
