#include "trace/counters.hpp"

#include "base/error.hpp"
#include "mem/access.hpp"
#include "mem/atomics.hpp"
#include "sim/program.hpp"
#include "sim/tensor.hpp"

#include <algorithm>
#include <bit>

namespace warpscope::trace {

void MemCounters::add(const MemCounters& o) {
    tensorHmma += o.tensorHmma;
    tensorImma += o.tensorImma;
    tensorPipeCycles += o.tensorPipeCycles;
    ldsm += o.ldsm;
    inst += o.inst;
    threadInst += o.threadInst;
    threadInstPredOn += o.threadInstPredOn;
    branches += o.branches;
    divergentBranches += o.divergentBranches;
    globalLdRequests += o.globalLdRequests;
    globalLdSectors += o.globalLdSectors;
    globalLdBytes += o.globalLdBytes;
    globalStRequests += o.globalStRequests;
    globalStSectors += o.globalStSectors;
    globalStBytes += o.globalStBytes;
    globalAtomRequests += o.globalAtomRequests;
    globalAtomSectors += o.globalAtomSectors;
    globalRedRequests += o.globalRedRequests;
    ldgstsInst += o.ldgstsInst;
    ldgstsBypassInst += o.ldgstsBypassInst;
    globalLdgstsRequests += o.globalLdgstsRequests;
    globalLdgstsSectors += o.globalLdgstsSectors;
    sharedLdgstsWavefronts += o.sharedLdgstsWavefronts;
    sharedLdgstsConflicts += o.sharedLdgstsConflicts;
    sharedLdgstsBypassWavefronts += o.sharedLdgstsBypassWavefronts;
    sharedLdgstsBypassConflicts += o.sharedLdgstsBypassConflicts;
    globalRedSectors += o.globalRedSectors;
    localLdSectors += o.localLdSectors;
    localStSectors += o.localStSectors;
    localRequests += o.localRequests;
    sharedLdRequests += o.sharedLdRequests;
    sharedLdWavefronts += o.sharedLdWavefronts;
    sharedLdConflicts += o.sharedLdConflicts;
    sharedLdWavefrontsPtx += o.sharedLdWavefrontsPtx;
    sharedLdConflictsPtx += o.sharedLdConflictsPtx;
    sharedLdRequestsSass += o.sharedLdRequestsSass;
    sharedStRequests += o.sharedStRequests;
    sharedStWavefronts += o.sharedStWavefronts;
    sharedStConflicts += o.sharedStConflicts;
}

LdgstsShared ldgstsShared(const uint64_t* sources, const uint64_t* shared, uint32_t mask, uint32_t bytesPerLane) {
    LdgstsShared r;
    const uint32_t bytes = std::clamp<uint32_t>(bytesPerLane, 4, 16);
    const uint32_t words = bytes / 4, lanesPerPhase = 128 / bytes;
    bool zeroFill16 = false;   // a 16-byte copy with zero fill: its read bytes and its zeros go apart
    for (uint32_t m = mask; m; m &= m - 1) {
        const int l = std::countr_zero(m);
        if (bytes == 16 && (shared[l] >> 32) < 16) zeroFill16 = true;
    }
    // Distinct words per bank in one pass: a word already counted (a broadcast, or two lanes
    // writing one word) costs nothing more, as for shared loads (an assumption: no probe has it).
    struct Banks {
        uint64_t seen[32][32];   // a phase has at most 32 words
        uint32_t count[32] = {};
        void add(uint64_t word) {
            const uint32_t b = uint32_t(word & 31);
            for (uint32_t i = 0; i < count[b]; ++i)
                if (seen[b][i] == word) return;
            if (count[b] < 32) seen[b][count[b]++] = word;
        }
        uint32_t worst() const { return *std::max_element(count, count + 32); }
    };
    for (uint32_t first = 0; first < 32; first += lanesPerPhase) {
        const uint32_t phaseMask = mask & uint32_t(((uint64_t(1) << lanesPerPhase) - 1) << first);
        if (!phaseMask) continue;
        for (int pass = 0; pass < (zeroFill16 ? 2 : 1); ++pass) {
            Banks src, dst;
            bool any = false;
            for (uint32_t m = phaseMask; m; m &= m - 1) {
                const int l = std::countr_zero(m);
                const uint64_t from = shared[l] >> 32, to = shared[l] & 0xffffffffu;
                for (uint32_t k = 0; k < words; ++k) {
                    const bool read = 4 * k < from, zero = 4 * k + 4 > from;   // a word may be part of both
                    if (zeroFill16 ? !(pass == 0 ? read : zero) : false) continue;
                    any = true;
                    dst.add(to / 4 + k);
                    if (read && (!zeroFill16 || pass == 0)) src.add(sources[l] / 4 + k);
                }
            }
            if (!any) continue;
            r.wavefronts += std::max(src.worst(), dst.worst());
            r.ideal += 1;
        }
    }
    return r;
}

CounterCollector::CounterCollector(CacheConfig cfg) : cfg_(cfg) {
    for (uint32_t i = 0; i < std::max(1u, cfg_.numSMs); ++i) l1_.push_back(std::make_unique<mem::SectorCache>(cfg_.l1Bytes, cfg_.l1Ways));
    l2_ = std::make_unique<mem::SectorCache>(cfg_.l2Bytes, cfg_.l2Ways);
}

MemCounters& CounterCollector::lineOf(uint32_t line) {
    if (line >= lines_.size()) lines_.resize(line + 1);
    return lines_[line];
}

void CounterCollector::onStep(const sim::Step& s) {
    const uint32_t ordinal = share_ ? schedule_.record(s) : 0;
    MemCounters d;
    d.inst = 1;
    d.threadInst = static_cast<uint64_t>(std::popcount(s.activeMask));
    d.threadInstPredOn = static_cast<uint64_t>(std::popcount(s.execMask));
    if (s.branch) {
        d.branches = 1;
        d.divergentBranches = s.divergent ? 1 : 0;
    }
    if (s.instr && s.instr->matrix && s.execMask) {
        // Counted as sm_90's SASS has them (docs/tensor-cores.md): a wmma.mma is 2 HMMA/IMMA (4
        // for tf32), an mma.sync one; ldmatrix is one LDSM, and so is a wmma.load of a 16-bit A or
        // B tile from .shared (ptxas loads it with LDSM).
        const sim::MatrixOp& op = *s.instr->matrix;
        const uint64_t n = uint64_t(sim::tensorInstructions(op));
        (sim::tensorIsInteger(op) ? d.tensorImma : d.tensorHmma) = n;
        d.tensorPipeCycles = uint64_t(sim::tensorPipeCycles(op));
        const bool ldsmLoad = op.kind == sim::MatrixKind::WmmaLoad && s.instr->space == ptx::StateSpace::Shared &&
                              (op.frag == sim::Frag::A || op.frag == sim::Frag::B) && sim::elemBytes(op.atype) == 2;
        d.ldsm = op.kind == sim::MatrixKind::Ldmatrix || ldsmLoad ? 1 : 0;
    }
    if (s.addresses && s.execMask && (s.isLoad || s.isStore || s.isAtomic)) {
        const uint32_t bytes = s.accessBytes;
        if (s.space == ptx::StateSpace::Global) {
            mem::GlobalAccess ga;
            // A cp.async lane with source size 0 reads nothing (it only writes zeros): no request
            // at all when no lane reads, as the H100 counts it (tests/validation/ldgsts-probe.cu).
            uint32_t reading = s.execMask;
            if (s.asyncShared)
                for (uint32_t m = s.execMask; m; m &= m - 1)
                    if ((s.asyncShared[std::countr_zero(m)] >> 32) == 0) reading &= ~(1u << std::countr_zero(m));
            if (reading) mem::coalesce(s.addresses, reading, bytes, ga);
            if (s.isAtomic) {
                // Atomic sectors are counted per pass (mem/atomics.hpp); an atomic ptxas aggregates
                // is one lane's. red, or an atom whose result is unused, runs (and counts) as RED.
                const uint32_t lanes = s.instr && s.instr->aggregated ? s.execMask & (0u - s.execMask) : s.execMask;
                const uint32_t ops = mem::atomicWork(s.addresses, lanes, 32).sectorOps;
                if (s.instr && s.instr->reduction) {
                    d.globalRedRequests = ga.requests;
                    d.globalRedSectors = ops;
                } else {
                    d.globalAtomRequests = ga.requests;
                    d.globalAtomSectors = ops;
                }
            } else if (s.isLoad && s.instr && s.instr->op == sim::Op::CpAsync) {
                d.ldgstsInst = 1;
                d.ldgstsBypassInst = s.instr->asyncBypassL1 ? 1 : 0;
                d.globalLdgstsRequests = ga.requests;
                d.globalLdgstsSectors = ga.sectors;
                if (s.asyncShared) {
                    const LdgstsShared sh = ldgstsShared(s.addresses, s.asyncShared, s.execMask, bytes);
                    d.sharedLdgstsWavefronts = sh.wavefronts;
                    d.sharedLdgstsConflicts = sh.conflicts();
                    if (s.instr->asyncBypassL1) {
                        d.sharedLdgstsBypassWavefronts = sh.wavefronts;
                        d.sharedLdgstsBypassConflicts = sh.conflicts();
                    }
                }
            } else if (s.isLoad) {
                d.globalLdRequests = ga.requests;
                d.globalLdSectors = ga.sectors;
                d.globalLdBytes = ga.bytesUsed;
            } else {
                d.globalStRequests = ga.requests;
                d.globalStSectors = ga.sectors;
                d.globalStBytes = ga.bytesUsed;
            }
            if (!share_) {
                cacheAccess(s.block, ga.sectorAddr, ga.sectors, s.isLoad, s.isAtomic);
            } else if (ga.sectors) {
                // A share cannot know the serial order: keep the sectors for the replay.
                const uint64_t i = s.warp - schedule_.base();
                if (i >= streams_.size()) streams_.resize(std::max<uint64_t>(i + 1, streams_.size() + streams_.size() / 2));
                auto& st = streams_[i];
                const uint64_t flags = (s.isLoad ? 1u : 0u) | (s.isAtomic ? 2u : 0u);
                st.push_back(uint64_t(ordinal) << 32 | flags << 8 | ga.sectors);
                st.insert(st.end(), ga.sectorAddr, ga.sectorAddr + ga.sectors);
                words_ += 1 + ga.sectors;
                if (words_ > kShareWordBudget)
                    throw Error(Error::Kind::Unsupported, "The counters' record of a parallel share outgrew its budget.");
            }
        } else if (s.space == ptx::StateSpace::Shared && !s.isAtomic) {
            mem::SharedAccess sa = mem::sharedWavefronts(s.addresses, s.execMask, bytes, s.isLoad);
            if (s.isLoad) {
                d.sharedLdRequests = 1;
                d.sharedLdWavefrontsPtx = sa.wavefronts;
                d.sharedLdConflictsPtx = sa.conflicts();
                sharedLoadAsSass(s, sa, d);
            } else {
                d.sharedStRequests = 1;
                d.sharedStWavefronts = sa.wavefronts;
                d.sharedStConflicts = sa.conflicts();
            }
        } else if (s.space == ptx::StateSpace::Local) {
            // Local memory is interleaved by 4-byte words across the lanes of a warp, so the
            // same offset in every thread forms one contiguous 128-byte run.
            uint64_t phys[32];
            for (int l = 0; l < 32; ++l) phys[l] = (s.addresses[l] / 4) * 128 + uint64_t(l) * 4 + (s.addresses[l] % 4);
            mem::GlobalAccess ga;
            mem::coalesce(phys, s.execMask, std::min<uint32_t>(bytes, 4), ga);
            uint32_t per = std::max(1u, bytes / 4);
            d.localRequests = 1;
            if (s.isLoad) d.localLdSectors = uint64_t(ga.sectors) * per;
            else d.localStSectors = uint64_t(ga.sectors) * per;
        }
    }
    total_.add(d);
    lineOf(s.instr ? s.instr->line : 0).add(d);
}

void CounterCollector::setProgram(const sim::Program& program) {
    program_ = &program;
    merges_ = std::make_shared<const SharedLoadMerges>(findSharedLoadMerges(program.code));
    openGroups_.clear();
}

// The SASS-level share of a shared load (trace/shared_merge.hpp): a merged group's first load
// issues the wide load and counts its wavefronts; the other members count nothing. Where the
// group does not run as the wide load (an address not aligned at run time, a member issued with
// other lanes), each load counts as written, as the cycle model charges it.
void CounterCollector::sharedLoadAsSass(const sim::Step& s, const mem::SharedAccess& ptx, MemCounters& d) {
    const int32_t leader = merges_ && s.pc >= 0 && size_t(s.pc) < merges_->leader.size() ? merges_->leader[size_t(s.pc)] : -1;
    auto asWritten = [&] {
        d.sharedLdWavefronts = ptx.wavefronts;
        d.sharedLdConflicts = ptx.conflicts();
        d.sharedLdRequestsSass = 1;
    };
    if (leader < 0) return asWritten();
    if (leader == s.pc) {
        const uint32_t bytes = merges_->bytes[size_t(s.pc)];
        if (!mergedAccessAligned(s.addresses, s.execMask, bytes)) {
            openGroups_.erase(s.warp);
            return asWritten();
        }
        const mem::SharedAccess wide = mem::sharedWavefronts(s.addresses, s.execMask, bytes, true);
        d.sharedLdWavefronts = wide.wavefronts;
        d.sharedLdConflicts = wide.conflicts();
        d.sharedLdRequestsSass = 1;
        openGroups_[s.warp] = OpenGroup{leader, s.execMask, uint32_t(merges_->members(leader) - 1)};
        return;
    }
    auto it = openGroups_.find(s.warp);
    if (it == openGroups_.end() || it->second.leader != leader || it->second.mask != s.execMask) return asWritten();
    if (--it->second.left == 0) openGroups_.erase(it);   // (counted with the wide load)
}

void CounterCollector::cacheAccess(uint32_t block, const uint64_t* sectors, uint32_t n, bool isLoad, bool isAtomic) {
    mem::SectorCache& l1 = *l1_[block % l1_.size()];
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t sec = sectors[i];
        if (isLoad) {
            ++l1Lookups_;
            if (l1.access(sec, false)) {
                ++l1Hits_;
                continue;
            }
        }
        // Stores write through to L2; atomics execute at L2; load misses go there too.
        ++l2Lookups_;
        const bool write = !isLoad;
        if (l2_->access(sec, write)) ++l2Hits_;
        else if (!write || isAtomic) ++dramReadSectors_;
    }
}

// ---------------------------------------------------------------- parallel runs
void CounterCollector::enableParallel(const LaunchShape& shape, const sim::Program& program) {
    parallel_ = true;
    shape_ = shape;
    if (program_ != &program || !merges_) setProgram(program);
}

std::unique_ptr<sim::StepListener> CounterCollector::fork() const {
    if (!parallel_ || share_) return nullptr;
    auto f = std::make_unique<CounterCollector>(CacheConfig{1, 0, 1, 0, 1});   // a share has no caches of its own
    f->share_ = true;
    f->shape_ = shape_;
    f->program_ = program_;
    f->merges_ = merges_;
    f->schedule_ = ScheduleLog(shape_.warpsPerBlock);
    return f;
}

void CounterCollector::join(sim::StepListener& fork) {
    auto& f = static_cast<CounterCollector&>(fork);
    total_.add(f.total_);
    if (f.lines_.size() > lines_.size()) lines_.resize(f.lines_.size());
    for (size_t l = 0; l < f.lines_.size(); ++l) lines_[l].add(f.lines_[l]);
    // Streams are indexed from the schedule's base: place the fork's at its warps.
    const uint64_t forkBase = f.schedule_.base();
    if (!pending_) {
        schedule_ = ScheduleLog(shape_.warpsPerBlock);
        streams_.clear();
    }
    schedule_.absorb(f.schedule_);
    const uint64_t at = forkBase - schedule_.base();
    if (streams_.size() < at + f.streams_.size()) streams_.resize(at + f.streams_.size());
    for (size_t i = 0; i < f.streams_.size(); ++i) streams_[at + i] = std::move(f.streams_[i]);
    pending_ = true;
}

void CounterCollector::resolveOrder() const {
    // Reads are const; the replay only completes state that joins left pending.
    if (pending_) const_cast<CounterCollector*>(this)->resolveOrderNow();
}

void CounterCollector::resolveOrderNow() {
    struct Visitor : OrderVisitor {
        CounterCollector& c;
        std::vector<size_t> cursor;   // per warp: next header word in its stream
        explicit Visitor(CounterCollector& cc) : c(cc), cursor(cc.streams_.size(), 0) {}
        const std::vector<uint64_t>* stream(uint64_t warp) {
            const uint64_t i = warp - c.schedule_.base();
            return warp >= c.schedule_.base() && i < c.streams_.size() && !c.streams_[i].empty() ? &c.streams_[i] : nullptr;
        }
        uint32_t firstMark(uint64_t warp) override {
            const auto* st = stream(warp);
            return st ? static_cast<uint32_t>((*st)[0] >> 32) : kNone;
        }
        uint32_t visit(uint64_t warp, uint32_t, uint64_t) override {
            const auto& st = *stream(warp);
            size_t& at = cursor[warp - c.schedule_.base()];
            const uint64_t h = st[at];
            const uint32_t n = static_cast<uint32_t>(h & 0xff);
            const uint32_t block = static_cast<uint32_t>(warp / c.shape_.warpsPerBlock);
            c.cacheAccess(block, st.data() + at + 1, n, (h >> 8) & 1, (h >> 9) & 1);
            at += 1 + n;
            return at < st.size() ? static_cast<uint32_t>(st[at] >> 32) : kNone;
        }
    } v(*this);
    pending_ = false;
    replaySerialOrder(shape_, schedule_, &v);
    streams_.clear();
    streams_.shrink_to_fit();
    schedule_.clear();
}

std::map<uint32_t, MemCounters> CounterCollector::byLine() const {
    std::map<uint32_t, MemCounters> m;
    for (uint32_t l = 0; l < lines_.size(); ++l)
        if (lines_[l].inst) m[l] = lines_[l];
    return m;
}

const std::vector<std::string>& CounterCollector::estimatedMetrics() {
    static const std::vector<std::string> e = {"l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct",
                                               "dram__bytes_read.sum", "dram__bytes_write.sum"};
    return e;
}

std::map<std::string, double> CounterCollector::metrics() const {
    resolveOrder();
    const MemCounters& t = total_;
    auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
    std::map<std::string, double> m;
    m["smsp__inst_executed.sum"] = double(t.inst);
    m["smsp__thread_inst_executed.sum"] = double(t.threadInst);
    m["smsp__thread_inst_executed_pred_on.sum"] = double(t.threadInstPredOn);
    m["smsp__thread_inst_executed_per_inst_executed.ratio"] = ratio(double(t.threadInst), double(t.inst));
    m["smsp__sass_branch_targets.sum"] = double(t.branches);
    m["smsp__sass_branch_targets_threads_divergent.sum"] = double(t.divergentBranches);
    m["smsp__sass_branch_targets_threads_uniform.sum"] = double(t.branches - t.divergentBranches);
    m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = double(t.globalLdRequests);
    m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = double(t.globalLdSectors);
    m["l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"] = ratio(double(t.globalLdSectors), double(t.globalLdRequests));
    m["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] = double(t.globalStRequests);
    m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] = double(t.globalStSectors);
    m["l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio"] = ratio(double(t.globalStSectors), double(t.globalStRequests));
    m["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"] = double(t.globalAtomRequests);
    m["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"] = double(t.globalAtomSectors);
    m["l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"] = double(t.globalRedRequests);
    m["l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"] = double(t.globalRedSectors);
    m["smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"] = 100.0 * ratio(double(t.globalLdBytes), 32.0 * double(t.globalLdSectors));
    m["smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"] = 100.0 * ratio(double(t.globalStBytes), 32.0 * double(t.globalStSectors));
    m["l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"] = double(t.localLdSectors);
    m["l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"] = double(t.localStSectors);
    m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = double(t.sharedLdWavefronts);
    m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = double(t.sharedStWavefronts);
    m["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = double(t.sharedLdWavefronts);
    m["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = double(t.sharedStWavefronts);
    m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = double(t.sharedLdConflicts);
    m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] = double(t.sharedStConflicts);
    // Nsight Compute has these per SM sub-partition (smsp__) and per SM (sm__); their sums over the
    // whole GPU are the same number.
    auto smspAndSm = [&m](const std::string& name, double v) { m["smsp__" + name] = m["sm__" + name] = v; };
    smspAndSm("inst_executed_pipe_tensor.sum", double(t.tensorHmma + t.tensorImma));
    smspAndSm("inst_executed_pipe_tensor_op_hmma.sum", double(t.tensorHmma));
    smspAndSm("inst_executed_pipe_tensor_op_imma.sum", double(t.tensorImma));
    smspAndSm("pipe_tensor_cycles_active.sum", double(t.tensorPipeCycles));
    smspAndSm("inst_executed_op_ldsm.sum", double(t.ldsm));
    // cp.async as LDGSTS: Nsight Compute's sass-level names (its smsp__inst_executed_op_ldgsts
    // also counts instances ptxas predicated off, which PTX does not have). A count comes with its
    // split into the copies through L1 (<name>_cache_access) and those around it (<name>_cache_bypass).
    auto ldgsts = [&m](const std::string& name, uint64_t all, uint64_t bypass) {
        m[name + ".sum"] = double(all);
        m[name + "_cache_access.sum"] = double(all - bypass);
        m[name + "_cache_bypass.sum"] = double(bypass);
    };
    ldgsts("smsp__sass_inst_executed_op_ldgsts", t.ldgstsInst, t.ldgstsBypassInst);
    m["smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum"] = double(t.globalLdgstsRequests);
    m["smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum"] = double(t.globalLdgstsSectors);
    // Its shared side (ldgstsShared): wavefronts and bank conflicts of the writes into shared memory.
    ldgsts("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts", t.sharedLdgstsWavefronts, t.sharedLdgstsBypassWavefronts);
    ldgsts("smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts", t.sharedLdgstsConflicts, t.sharedLdgstsBypassConflicts);
    m["smsp__inst_executed_op_shared_ld.sum"] = double(t.sharedLdRequests);
    m["smsp__inst_executed_op_shared_st.sum"] = double(t.sharedStRequests);
    // Shared loads as the SASS has them (merged loads once) and as the PTX has them.
    m["smsp__sass_inst_executed_op_shared_ld.sum"] = double(t.sharedLdRequestsSass);
    m["ptx__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = double(t.sharedLdWavefrontsPtx);
    m["ptx__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = double(t.sharedLdConflictsPtx);
    m["l1tex__t_sector_hit_rate.pct"] = 100.0 * ratio(double(l1Hits_), double(l1Lookups_));
    m["lts__t_sector_hit_rate.pct"] = 100.0 * ratio(double(l2Hits_), double(l2Lookups_));
    m["dram__bytes_read.sum"] = 32.0 * double(dramReadSectors_);
    // Written sectors reach DRAM when evicted or at the end of the kernel (write-back L2).
    m["dram__bytes_write.sum"] = 32.0 * double(l2_->writebacks() + l2_->dirtySectors());
    return m;
}

} // namespace warpscope::trace
