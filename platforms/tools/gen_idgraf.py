#!/usr/bin/env python3
"""platforms/tools/gen_idgraf.py — writes platforms/idgraf.xml, its named
variants idgraf-pcie.xml, idgraf-starpu.xml and idgraf-numa.xml, and
idgraf-dada.xml (development tool; the build does not run it).

The links, bandwidths and latencies are those of the profile `xkaapi-idgraf`
of StarPU's bus sampling on Idgraf (tools/perfmodels/sampling/bus/idgraf.* in
StarPU's repository; the topology is Lima 2014's, §2.1.5; QPI's 10.24 GB/s is
our assumption), plus:
  * host properties kind/socket/ioh/switch/memsize read by hetsim;
  * direct GPU-to-GPU routes (used only with --p2p; XKaapi stages GPU copies
    through host memory) with StarPU's measured peer bandwidths on a
    private link, crossing the shared switch uplinks, host bridges and QPI of
    their path; a copy between the two host bridges also crosses the host
    side twice (gpu_to_gpu: the driver stages it through host memory);
  * the host side, one model per variant (HOST_MODELS below):
      pcie    the PCIe tree alone: per-GPU links, switch uplinks, the host
              bridges' internal capacity, QPI between them (hetsim 0.1's model);
      starpu  StarPU 1.1's platform for Idgraf: one `Host` link of 6520.98
              MB/s shared by every host<->GPU transfer, both directions;
      numa    StarPU's current platform model (src/core/perfmodel/perfmodel_bus.c,
              emit_platform_backward_path): one link per NUMA node, crossed by
              the transfers of the GPUs behind that node's host bridge, at the
              largest bandwidth sampled for those GPUs, both directions;
    idgraf.xml is the variant DEFAULT_HOST_MODEL names, chosen by the ledger
    of every Idgraf study run under each (docs/fidelity.md);
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
QPI = 10240000000
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


HOST_MODELS = ("pcie", "starpu", "numa")
DEFAULT_HOST_MODEL = "starpu"  # the ledger over every Idgraf study: 12 claims hold under starpu, 8 numa, 7 pcie (docs/fidelity.md)
STARPU_HOST = 6520981045  # StarPU's Idgraf `Host` link: the largest sampled bandwidth (GPU6 D2H)
NUMA_HOST = [max(max(b for b, _ in H2D[4 * i:4 * i + 4]), max(b for b, _ in D2H[4 * i:4 * i + 4]))
             for i in range(2)]  # per host bridge: the largest bandwidth sampled for its GPUs

# The runtime's costs (sim/costs.h): XKaapi on Idgraf (CUDA 5.0, Tesla C2050, Xeon X5650).
# The papers measure none of them; each value is an assumption or a reading, with its reason.
RUNTIME_COSTS = [
    ("runtime/task_cpu", "1us", "ASSUMPTION: a data-flow task's activation, push and pop on a core; "
     "XKaapi creates a task in about 0.1 us (Lima 2014, Sec. 4.3: Fibonacci's T1/Ts of about 10), "
     "activation and queue work are taken an order of magnitude above"),
    ("runtime/task_gpu", "5us", "ASSUMPTION: a GPU task's launch, event record and poll by its "
     "driving core (a few microseconds per CUDA call on Fermi)"),
    ("runtime/transfer_issue", "0", "READING: the sampled latencies (11-12 us, StarPU's bus sampling) "
     "time whole cudaMemcpy calls, so they already hold a copy's issue on the host"),
    ("runtime/decide_push", "0.2us", "ASSUMPTION: one push into a queue (a lock and a few pointer writes)"),
    ("runtime/decide_worker", "1us", "ASSUMPTION: one worker's estimated finish time (its queue, the "
     "task's history-based time, its inputs' transfer estimates), as online HEFT, dmda, DADA and DDA "
     "compute for every worker"),
]


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
    for a in range(8):
        for b in range(8):
            if a != b:
                bw, lat = p2p_params(a, b)
                out.append('  <link id="p2p_%d_%d" bandwidth="%dBps" latency="%.1fus"/>' % (a, b, bw, lat))
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
        f.write(platform(DEFAULT_HOST_MODEL, "idgraf"))
    for model in HOST_MODELS:
        with open(root + "/idgraf-%s.xml" % model, "w") as f:
            f.write(platform(model, "idgraf-" + model))
    with open(root + "/idgraf-dada.xml", "w") as f:
        f.write(dada_platform())
