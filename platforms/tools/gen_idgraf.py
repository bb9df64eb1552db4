#!/usr/bin/env python3
"""platforms/tools/gen_idgraf.py — writes platforms/idgraf.xml, its named
variants idgraf-pcie.xml, idgraf-starpu.xml and idgraf-numa.xml, and
idgraf-dada.xml (development tool; the build does not run it).

idgraf.xml is the machine as the papers describe it (since 2026-11-29, issue 58):
"The machine has 4 PCIe switches to support up to 8 GPUs. When 2 GPUs share a
switch, their aggregated PCIe bandwidth is bounded by the one of a single PCIe
16x" (Bleuse et al. 2014, Sec. 4.1; Lima 2014, Sec. 2.1.5), and two QPI-PCIe
bridges, cores 0-5 near GPUs 0-3, transfers from CPU 0 to GPUs 4-7 "forcing the
use of two QPI-PCIe bridges" (Lima 2014, Appendix C). Every link is one way
(PCIe and QPI are full duplex), with its source beside it in the file:
  * gpuG_h2d / gpuG_d2h: each GPU alone, StarPU's bus sampling on Idgraf
    (tools/perfmodels/sampling/bus/idgraf.bandwidth and .latency in StarPU's
    repository; StarPU 1.3.10, Debian's starpu-examples), measured from the
    GPU's nearest NUMA node (idgraf.affinity);
  * swS_down / swS_up: the switch's x16 uplink, shared by its two GPUs: the
    larger sampled bandwidth of the pair each way (what one x16 carried when
    measured, the paper's "bounded by the one of a single PCIe 16x"; StarPU's
    own idgraf.platform.v4.xml gives the switch's root port the same values,
    lines 143-144, 156-157, 172-173, 185-186), no latency of its own (the
    sampled latency holds the whole path); under PCIe 2.0 x16's 8 GB/s raw
    each way (DATASHEET, PCI-SIG PCIe 2.0 base specification);
  * iohI_down / iohI_up: the QPI link between socket I (its memory, RAM I) and
    its QPI-PCIe bridge (Intel 5520 IOH), 12.8 GB/s each way (DATASHEET: QPI
    at 6.4 GT/s, Intel Xeon X5650 / 5520 IOH); crossed by every transfer to or
    from RAM I; no latency of its own (held by the sampled latency);
  * qpi_0to1 / qpi_1to0: the QPI link between the two bridges, 12.8 GB/s each
    way (DATASHEET, as above) and 0.1 us (ASSUMPTION: one QPI hop; nothing
    sampled a GPU from its far node); crossed by a transfer between RAM r and
    a GPU behind the other bridge (Lima 2014, App. C: through both bridges).
  * direct GPU-to-GPU routes (used only with --p2p; XKaapi stages GPU copies
    through host memory) with StarPU's measured peer bandwidths on a private
    link, crossing the switch uplinks of their path; between the bridges the
    CUDA driver stages the copy through host memory (StarPU sampled 3.08 and
    3.80 GB/s there against 5.29 to 6.63 within one), so such a route also
    crosses the first GPU's bridge link up and down (ASSUMPTION: staged in
    that GPU's NUMA node) and the QPI link between the bridges.

The named variants keep hetsim's earlier tree (until 2026-11-29 the default):
per-GPU and switch links as above but the switch's down link at the pair's
smaller sampled bandwidth, each bridge's "through" link of StarPU's
generated platform (13.04 GB/s, twice its largest child, shared by both
directions) and QPI 12.8 GB/s x 0.8 (ASSUMPTION), transfers of GPUs 4-7 from
RAM0 crossing QPI and the other bridge only; on it, one host model each
(HOST_MODELS below):
      pcie    the tree alone (hetsim 0.1's model);
      starpu  StarPU 1.1's platform for Idgraf: one `Host` link of 6520.98
              MB/s shared by every host<->GPU transfer, both directions (the
              default until 2026-11-29);
      numa    StarPU's current platform model (src/core/perfmodel/perfmodel_bus.c,
              emit_platform_backward_path): one link per NUMA node, crossed by
              the transfers of the GPUs behind that node's host bridge, at the
              largest bandwidth sampled for those GPUs, both directions;
plus, in every file:
  * host properties kind/socket/ioh/switch/memsize read by hetsim;
  * the runtime's costs (sim/costs.h) as zone properties, each with its source.

It also writes platforms/idgraf-dada.xml, the machine as
a plain PCIe model of our own for Bleuse et al. 2014 (which gives no bandwidth)
models it: one link per GPU (6 GB/s, 10 us)
behind one link per PCIe switch (6 GB/s, no latency), both SPLITDUPLEX (the
C2050's two DMA engines), no host bridges, 3 GiB per GPU (the C2050's memory), no
direct GPU-to-GPU route (copies are staged through host memory, as XKaapi
did)."""
import sys

H2D = [(5985150529, 11.019), (5982867814, 10.962), (6004601450, 10.954), (6002864228, 11.008),
       (6017068835, 11.006), (6017279500, 11.098), (6014519783, 11.110), (6025792854, 11.064)]
D2H = [(6518853316, 11.927), (6507263283, 11.956), (6468888505, 11.869), (6379975977, 11.895),
       (6520767791, 12.104), (6520979807, 12.098), (6520981045, 12.133), (6518969813, 12.117)]
SW_DOWN = [5982867814, 6002864228, 6017068835, 6014519783]
SW_UP = [6518853316, 6468888505, 6520979807, 6520981045]
IOH = [13037706632, 13041962090]
QPI = 10240000000  # the earlier tree's assumption: 12.8 GB/s x 0.8
# The papers' tree (idgraf.xml): the switch uplink each way at the larger sampled bandwidth
# of its pair (StarPU's idgraf.platform.v4.xml gives the switch's root port the same values).
SW_DOWN_X16 = [max(H2D[2 * s][0], H2D[2 * s + 1][0]) for s in range(4)]
SW_UP_X16 = [max(D2H[2 * s][0], D2H[2 * s + 1][0]) for s in range(4)]
STARPU_LINE = [(143, 144), (156, 157), (172, 173), (185, 186)]  # root port up, down lines
QPI_DATASHEET = 12800000000  # QPI at 6.4 GT/s: 12.8 GB/s each way (Intel Xeon X5650, 5520 IOH)
PCIE2_X16_RAW = 8000000000   # PCIe 2.0 x16: 8 GB/s each way raw (PCI-SIG base specification 2.0)
# GPU memory: the C2050's 3 GB with ECC off, as in Lima 2014's runs (§5.6.4.1: "the 3 GB
# available"; DGEMM 10240, 2.52e9 B, fits the GPU there, which XKaapi's cache of 0.8 x the memory
# allows only without ECC). DERIVED from StarPU's sampling of Idgraf (2817982464 B, ECC on) and
# NVIDIA's Tesla C2050 board specification (ECC takes 12.5% of the memory): 2817982464 / 0.875.
MEMSIZE = 3220551387
# peer copies (StarPU's sampling): bandwidth B/s, latency us
P2P_SAME_SWITCH = (6634600000, 18.0)
P2P_SAME_IOH = (5292000000, 18.5)
P2P_0TO1 = (3076000000, 27.5)
P2P_1TO0 = (3802000000, 27.8)


def ioh(g):
    return g // 4


def switch(g):
    return g // 2


def route(src, dst, links):
    ctn = "".join('<link_ctn id="%s"/>' % l for l in links)
    return '  <route src="%s" dst="%s" symmetrical="NO">%s</route>' % (src, dst, ctn)


def ram_to_gpu(r, g, host_link):
    path = ([host_link(g)] if host_link else []) + \
        (["qpi_%dto%d" % (r, ioh(g))] if r != ioh(g) else []) + \
        ["ioh%d_through" % ioh(g), "sw%d_down" % switch(g), "gpu%d_h2d" % g]
    return route("RAM%d" % r, "GPU%d" % g, path)


def gpu_to_ram(g, r, host_link):
    path = ["gpu%d_d2h" % g, "sw%d_up" % switch(g), "ioh%d_through" % ioh(g)] + \
        (["qpi_%dto%d" % (ioh(g), r)] if r != ioh(g) else []) + \
        ([host_link(g)] if host_link else [])
    return route("GPU%d" % g, "RAM%d" % r, path)


def gpu_to_gpu(a, b, host_link):
    """A peer copy. Between the host bridges the C2050s have no peer access
    (the 5520 IOH does not carry peer traffic over QPI), so cudaMemcpyPeer
    stages the copy through host memory: StarPU's sampling shows it, 3.08 and
    3.80 GB/s across the bridges against 5.29 to 6.63 within one. Its two
    halves, a D2H from a and an H2D to b, each cross the host side as a
    transfer of that GPU does (twice the one Host link under `starpu`)."""
    link = "p2p_%d_%d" % (a, b)
    if switch(a) == switch(b):
        return route("GPU%d" % a, "GPU%d" % b, [link])
    path = [link, "sw%d_up" % switch(a), "ioh%d_through" % ioh(a)]
    if ioh(a) != ioh(b):
        path += ["qpi_%dto%d" % (ioh(a), ioh(b)), "ioh%d_through" % ioh(b)]
    path.append("sw%d_down" % switch(b))
    if ioh(a) != ioh(b) and host_link:
        path += [host_link(a), host_link(b)]
    return route("GPU%d" % a, "GPU%d" % b, path)


def p2p_params(a, b):
    if switch(a) == switch(b):
        return P2P_SAME_SWITCH
    if ioh(a) == ioh(b):
        return P2P_SAME_IOH
    return P2P_0TO1 if ioh(a) == 0 else P2P_1TO0


HOST_MODELS = ("pcie", "starpu", "numa")  # variants on the earlier tree; idgraf.xml is papers_platform
STARPU_HOST = 6520981045  # StarPU's Idgraf `Host` link: the largest sampled bandwidth (GPU6 D2H)
NUMA_HOST = [max(max(b for b, _ in H2D[4 * i:4 * i + 4]), max(b for b, _ in D2H[4 * i:4 * i + 4]))
             for i in range(2)]  # per host bridge: the largest bandwidth sampled for its GPUs

# The runtime's costs (sim/costs.h): XKaapi on Idgraf (CUDA 5.0, Tesla C2050, Xeon X5650).
# The papers measure none of them on Idgraf; each value is an assumption or a reading, with its reason.
RUNTIME_COSTS = [
    ("runtime/task_cpu", "9.49us", "ASSUMPTION, carried from Mapuche: XKaapi's per-task cost (a task's activation, "
     "push and pop) calibrated on Mapuche (platforms/mapuche.xml: 9.49 us, fitted on Beniamine 2013, Sec. 3.2.2, "
     "Fig. 3.6, N = 800's +48% by platforms/tools/fit_task_cost.sh), taken as Idgraf's (a Sandy Bridge "
     "Core i7-2600 there, Westmere Xeon X5650 here; the ledger's sensitivity to x0.5 and x2 in docs/fidelity.md); "
     "the same for StarPU's policies (dmda), whose own cost on Idgraf nothing measured"),
    ("runtime/task_gpu", "9.49us", "ASSUMPTION, carried from Mapuche as task_cpu (the fit cannot tell a GPU's task "
     "from a core's; the GPU kernel's launch is the timing table's overhead_seconds)"),
    ("runtime/transfer_issue", "0", "READING: the sampled latencies (11-12 us, StarPU's bus sampling) "
     "time whole cudaMemcpy calls, so they already hold a copy's issue on the host"),
    ("runtime/decide_push", "0.2us", "ASSUMPTION: one push into a queue (a lock and a few pointer writes)"),
    ("runtime/decide_worker", "1us", "ASSUMPTION: one worker's estimated finish time (its queue, the "
     "task's history-based time, its inputs' transfer estimates), as online HEFT, dmda, DADA and DDA "
     "compute for every worker"),
]


def p2p_links():
    """Each ordered GPU pair's private peer link (used only with --p2p)."""
    links = []
    for a in range(8):
        for b in range(8):
            if a != b:
                bw, lat = p2p_params(a, b)
                links.append('  <link id="p2p_%d_%d" bandwidth="%dBps" latency="%.1fus"/>' % (a, b, bw, lat))
    return links


def cost_props():
    out = []
    for key, value, why in RUNTIME_COSTS:
        out.append('  <!-- %s -->' % why)
        out.append('  <prop id="%s" value="%s"/>' % (key, value))
    return out


def header(comment, zone):
    lines = ['<?xml version="1.0"?>', '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">']
    lines += [('<!-- ' if i == 0 else '     ') + c + (' -->' if i == len(comment) - 1 else '')
              for i, c in enumerate(comment)]
    return lines + ['<platform version="4.1">', ' <config>', '  <prop id="network/model" value="CM02"/>',
                    '  <prop id="network/crosstraffic" value="0"/>', ' </config>',
                    ' <zone id="%s" routing="Full">' % zone]


# Power (SimGrid's host energy plugin: wattage_per_state="Idle:AllCores" watts).
# A core at work: the Xeon X5650's 95 W TDP per 6-core socket (Intel ARK, Xeon
# X5650) / 6; a GPU at work: the Tesla C2050's 238 W TDP (NVIDIA Tesla C2050 /
# C2070 datasheet). Idle: 0 W, an ASSUMPTION (neither gives an idle figure):
# the energy counts the cores and GPUs at work, at their TDP.
CPU_WATTS = "0:15.833"
GPU_WATTS = "0:238"
POWER_TEXT = ('<!-- wattage_per_state (Idle:AllCores W): a core at work 95 W / 6 (Xeon X5650 TDP per '
              '6-core socket, Intel ARK); a GPU at work 238 W (Tesla C2050 TDP, NVIDIA datasheet); '
              'idle 0 W: ASSUMPTION (no datasheet gives it) -->')


def hosts(cpu_speed, gpu_speed, memsize, with_ioh):
    lines = ['  ' + POWER_TEXT]
    lines += ['  <host id="CPU%d" speed="%s"><prop id="kind" value="cpu"/><prop id="socket" value="%d"/>'
              '<prop id="wattage_per_state" value="%s"/></host>' % (c, cpu_speed, c // 6, CPU_WATTS)
              for c in range(12)]
    for g in range(8):
        ioh_prop = '<prop id="ioh" value="%d"/>' % ioh(g) if with_ioh else ''
        lines.append('  <host id="GPU%d" speed="%s"><prop id="kind" value="gpu"/><prop id="memsize" value="%d"/>'
                     '%s<prop id="switch" value="%d"/><prop id="wattage_per_state" value="%s"/></host>'
                     % (g, gpu_speed, memsize, ioh_prop, switch(g), GPU_WATTS))
    return lines


HOST_TEXT = {
    "pcie": "Host side: the PCIe tree alone (no limit between host memory and the host bridges).",
    "starpu": "Host side: StarPU 1.1's one Host link of 6520.98 MB/s (the largest sampled bandwidth) "
              "shared by every host-GPU transfer, both directions.",
    "numa": "Host side: StarPU's current model, one link per NUMA node / host bridge at the largest "
            "bandwidth sampled for its GPUs (6518.85 and 6520.98 MB/s), both directions.",
}


MEM_TEXT = ('GPU memory (memsize): 3 GB with ECC off, as in Lima 2014 (Sec. 5.6.4.1), StarPU\'s sampled '
            '2817982464 B (ECC on) / 0.875 (ECC takes 12.5%: NVIDIA C2050 board specification).')


PEER_TEXT = ['Peer routes (--p2p) between the host bridges also cross the host side twice: the CUDA',
             'driver stages them through host memory (sampled 3.08/3.80 GB/s, 5.29-6.63 within a bridge).']


def platform(model, zone):
    out = header(['Idgraf: 2 x Xeon X5650 (12 cores), 8 Tesla C2050 behind 4 PCIe switches',
                  '(GPU pairs 0-1, 2-3, 4-5, 6-7), 2 host bridges (IOH) linked by QPI.',
                  'Generated by platforms/tools/gen_idgraf.py. Links: StarPU bus sampling on Idgraf',
                  '(tools/perfmodels/sampling/bus/idgraf.*: per-GPU bandwidth and latency, switch',
                  'uplinks, host bridges "through"); QPI 12.8 GB/s x 0.8 (ASSUMPTION).',
                  HOST_TEXT[model], MEM_TEXT] + (PEER_TEXT if model != "pcie" else []), zone)
    out += cost_props()
    out += hosts("8.9Gf", "316.4Gf", MEMSIZE, True)
    for r in range(2):
        out.append('  <host id="RAM%d" speed="1f"><prop id="kind" value="ram"/>'
                   '<prop id="numa" value="%d"/></host>' % (r, r))
    for g in range(8):
        out.append('  <link id="gpu%d_h2d" bandwidth="%dBps" latency="%.3fus"/>' % (g, H2D[g][0], H2D[g][1]))
        out.append('  <link id="gpu%d_d2h" bandwidth="%dBps" latency="%.3fus"/>' % (g, D2H[g][0], D2H[g][1]))
    for s in range(4):
        out.append('  <link id="sw%d_down" bandwidth="%dBps" latency="0us"/>' % (s, SW_DOWN[s]))
        out.append('  <link id="sw%d_up" bandwidth="%dBps" latency="0us"/>' % (s, SW_UP[s]))
    for i in range(2):
        out.append('  <link id="ioh%d_through" bandwidth="%dBps" latency="0us"/>' % (i, IOH[i]))
    out.append('  <link id="qpi_0to1" bandwidth="%dBps" latency="0.1us"/>' % QPI)
    out.append('  <link id="qpi_1to0" bandwidth="%dBps" latency="0.1us"/>' % QPI)
    host_link = None
    if model == "starpu":
        host_link = lambda g: "host"
        out.append('  <link id="host" bandwidth="%dBps" latency="0us"/>' % STARPU_HOST)
    elif model == "numa":
        host_link = lambda g: "host%d" % ioh(g)
        for i in range(2):
            out.append('  <link id="host%d" bandwidth="%dBps" latency="0us"/>' % (i, NUMA_HOST[i]))
    out.extend(p2p_links())
    for r in range(2):
        for g in range(8):
            out.append(ram_to_gpu(r, g, host_link))
            out.append(gpu_to_ram(g, r, host_link))
    for a in range(8):
        for b in range(8):
            if a != b:
                out.append(gpu_to_gpu(a, b, host_link))
    out += [' </zone>', '</platform>', '']
    return "\n".join(out)


def papers_ram_to_gpu(r, g):
    path = ["ioh%d_down" % r] + (["qpi_%dto%d" % (r, ioh(g))] if r != ioh(g) else []) + \
        ["sw%d_down" % switch(g), "gpu%d_h2d" % g]
    return route("RAM%d" % r, "GPU%d" % g, path)


def papers_gpu_to_ram(g, r):
    path = ["gpu%d_d2h" % g, "sw%d_up" % switch(g)] + \
        (["qpi_%dto%d" % (ioh(g), r)] if r != ioh(g) else []) + ["ioh%d_up" % r]
    return route("GPU%d" % g, "RAM%d" % r, path)


def papers_gpu_to_gpu(a, b):
    """A peer copy: within a switch its private link alone; within a bridge
    up a's uplink and down b's; across the bridges staged through host memory
    (no peer access across the 5520 IOHs): up to a's NUMA node and down from
    it to b, across the QPI link between the bridges."""
    link = "p2p_%d_%d" % (a, b)
    if switch(a) == switch(b):
        return route("GPU%d" % a, "GPU%d" % b, [link])
    path = [link, "sw%d_up" % switch(a)]
    if ioh(a) != ioh(b):
        path += ["ioh%d_up" % ioh(a), "ioh%d_down" % ioh(a), "qpi_%dto%d" % (ioh(a), ioh(b))]
    path.append("sw%d_down" % switch(b))
    return route("GPU%d" % a, "GPU%d" % b, path)


def papers_platform(zone):
    """Idgraf as Bleuse et al. 2014 (Sec. 4.1) and Lima 2014 (Sec. 2.1.5, App. C)
    describe it, every link one way, each with its source beside it."""
    out = header(['Idgraf: 2 x Xeon X5650 (12 cores), 8 Tesla C2050 behind 4 PCIe switches',
                  '(GPU pairs 0-1, 2-3, 4-5, 6-7), each switch on one x16 uplink, under two',
                  'QPI-PCIe bridges (Intel 5520 IOH): cores 0-5 and RAM0 near GPUs 0-3, cores 6-11',
                  'and RAM1 near GPUs 4-7; a transfer between RAM0 and GPUs 4-7 crosses both',
                  'bridges (Bleuse et al. 2014, Sec. 4.1; Lima 2014, Sec. 2.1.5 and Appendix C).',
                  'Generated by platforms/tools/gen_idgraf.py. Each link one way, its source',
                  'beside it: StarPU\'s bus sampling on Idgraf (tools/perfmodels/sampling/bus/idgraf.*',
                  'in StarPU\'s repository) where measured, a DATASHEET value where not.',
                  MEM_TEXT] + PEER_TEXT, zone)
    out += cost_props()
    out += hosts("8.9Gf", "316.4Gf", MEMSIZE, True)
    for r in range(2):
        out.append('  <host id="RAM%d" speed="1f"><prop id="kind" value="ram"/>'
                   '<prop id="numa" value="%d"/></host>' % (r, r))
    out.append('  <!-- Each GPU alone, each way: StarPU\'s bus sampling on Idgraf (idgraf.bandwidth, '
               'idgraf.latency: from the GPU\'s nearest NUMA node, pinned memory; MB/s x 1e6) -->')
    for g in range(8):
        out.append('  <link id="gpu%d_h2d" bandwidth="%dBps" latency="%.3fus"/>' % (g, H2D[g][0], H2D[g][1]))
        out.append('  <link id="gpu%d_d2h" bandwidth="%dBps" latency="%.3fus"/>' % (g, D2H[g][0], D2H[g][1]))
    out.append('  <!-- Each switch\'s x16 uplink, each way, shared by its two GPUs ("bounded by the one '
               'of a single PCIe 16x", Bleuse et al. 2014, Sec. 4.1): the larger sampled bandwidth of '
               'the pair (what one x16 carried; StarPU\'s idgraf.platform.v4.xml gives the switch\'s '
               'root port the same), under PCIe 2.0 x16\'s %.0f GB/s raw (DATASHEET); no latency of its '
               'own (the sampled latency holds the path) -->' % (PCIE2_X16_RAW / 1e9))
    for s in range(4):
        out.append('  <link id="sw%d_down" bandwidth="%dBps" latency="0us"/>'
                   '<!-- sampled: GPU%d H2D; StarPU idgraf.platform.v4.xml line %d -->'
                   % (s, SW_DOWN_X16[s], H2D.index(max(H2D[2 * s], H2D[2 * s + 1])), STARPU_LINE[s][1]))
        out.append('  <link id="sw%d_up" bandwidth="%dBps" latency="0us"/>'
                   '<!-- sampled: GPU%d D2H; StarPU idgraf.platform.v4.xml line %d -->'
                   % (s, SW_UP_X16[s], D2H.index(max(D2H[2 * s], D2H[2 * s + 1])), STARPU_LINE[s][0]))
    out.append('  <!-- Each bridge\'s QPI link to its socket and memory, each way: 12.8 GB/s (DATASHEET: '
               'QPI at 6.4 GT/s, Intel Xeon X5650 and 5520 IOH; nothing measured it); no latency of '
               'its own (the sampled latency holds the path) -->')
    for i in range(2):
        out.append('  <link id="ioh%d_down" bandwidth="%dBps" latency="0us"/>' % (i, QPI_DATASHEET))
        out.append('  <link id="ioh%d_up" bandwidth="%dBps" latency="0us"/>' % (i, QPI_DATASHEET))
    out.append('  <!-- The QPI link between the two bridges, each way: 12.8 GB/s (DATASHEET, as above); '
               '0.1 us: ASSUMPTION (one QPI hop; no sample from a GPU\'s far node) -->')
    out.append('  <link id="qpi_0to1" bandwidth="%dBps" latency="0.1us"/>' % QPI_DATASHEET)
    out.append('  <link id="qpi_1to0" bandwidth="%dBps" latency="0.1us"/>' % QPI_DATASHEET)
    out.append('  <!-- Peer copies (only with --p2p): StarPU\'s sampled peer bandwidth and latency '
               '(idgraf.bandwidth, idgraf.latency) on a private link -->')
    out.extend(p2p_links())
    for r in range(2):
        for g in range(8):
            out.append(papers_ram_to_gpu(r, g))
            out.append(papers_gpu_to_ram(g, r))
    for a in range(8):
        for b in range(8):
            if a != b:
                out.append(papers_gpu_to_gpu(a, b))
    out += [' </zone>', '</platform>', '']
    return "\n".join(out)


DADA_BW = 6000000000  # B_link = B_sw, bytes/s per direction (an estimate)
DADA_LAT = 10.0       # us, per GPU link
DADA_MEMSIZE = 3 * 2 ** 30


def dada_platform():
    out = header(['Idgraf as a plain PCIe model (our alternative for Bleuse et al. 2014):',
                  '12 cores, 8 GPUs, GPU g behind',
                  'link pcie_gpu{g} (6 GB/s, 10 us) and switch link pcie_sw{g/2} (6 GB/s, 0 us), both',
                  'SPLITDUPLEX; 3 GiB per GPU; GPU-to-GPU copies staged through host memory. Host',
                  'speeds are the DGEMM rates of its \u00a71.7 (for kernels its timing table lacks).',
                  'Generated by platforms/tools/gen_idgraf.py.'], "idgraf-dada")
    out += hosts("9.1Gf", "292Gf", DADA_MEMSIZE, False)
    out.append('  <host id="RAM0" speed="1f"><prop id="kind" value="ram"/></host>')
    for g in range(8):
        out.append('  <link id="pcie_gpu%d" bandwidth="%dBps" latency="%.1fus" sharing_policy="SPLITDUPLEX"/>'
                   % (g, DADA_BW, DADA_LAT))
    for s in range(4):
        out.append('  <link id="pcie_sw%d" bandwidth="%dBps" latency="0us" sharing_policy="SPLITDUPLEX"/>'
                   % (s, DADA_BW))
    for g in range(8):
        out.append('  <route src="RAM0" dst="GPU%d" symmetrical="NO"><link_ctn id="pcie_sw%d" direction="UP"/>'
                   '<link_ctn id="pcie_gpu%d" direction="UP"/></route>' % (g, switch(g), g))
        out.append('  <route src="GPU%d" dst="RAM0" symmetrical="NO"><link_ctn id="pcie_gpu%d" direction="DOWN"/>'
                   '<link_ctn id="pcie_sw%d" direction="DOWN"/></route>' % (g, g, switch(g)))
    out += [' </zone>', '</platform>', '']
    return "\n".join(out)


if __name__ == "__main__":
    root = sys.argv[1] if len(sys.argv) > 1 else "platforms"
    with open(root + "/idgraf.xml", "w") as f:
        f.write(papers_platform("idgraf"))
    for model in HOST_MODELS:
        with open(root + "/idgraf-%s.xml" % model, "w") as f:
            f.write(platform(model, "idgraf-" + model))
    with open(root + "/idgraf-dada.xml", "w") as f:
        f.write(dada_platform())
