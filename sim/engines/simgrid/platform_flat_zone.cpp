/* sim/engines/simgrid/platform_flat_zone.cpp — flat:P's zone built through
 * SimGrid's s4u API (hs_sg_flat_zone, platform_flat.h).
 *
 * C++ because SimGrid 3.32's C API cannot build a platform: simgrid/zone.h,
 * host.h and link.h read and set properties of a loaded platform, and only
 * s4u (simgrid::s4u::create_star_zone, NetZone::create_host, create_link,
 * add_route, seal) creates zones, hosts, links and routes. This file is the
 * only C++ of hetsim; it includes no hetsim header but platform_flat.h
 * (base/util.h is C17), and is called by hs_sg_flat_build (platform_flat.c)
 * once flat's values are checked.
 *
 * The model: every transfer takes lat + bytes / bw whatever else is moving
 * (the contention-free network of the list-scheduling literature): every
 * link is a FATPIPE (each flow gets bw whatever else crosses it), the
 * network model CM02 (no TCP window or latency factors, as the file this
 * replaces set it; hs_sg_init has turned TCP-gamma, crosstraffic and
 * weight-S off). SimGrid re-solves the flows that share a constraint with
 * one that starts or ends (issue 19), so the zone keeps flows apart:
 *   - up to HS_FLAT_PAIR_LINKS_MAX processors, routing Full with one link per
 *     ordered pair of hosts, made in the order of the file it replaces (at
 *     most 129 x 128 routes), so that runs are the same to the byte: the
 *     order in which transfers ending at one date are reported is SimGrid's
 *     and follows the constraints;
 *   - past it, a star zone: each host has a link out (latency lat) and a
 *     link in (latency 0), a route is the sender's link out then the
 *     receiver's link in (latency lat, bottleneck bw): 2(P+1) links and no
 *     route table, where the file had (P+1)P routes over one link. */
#include "sim/engines/simgrid/platform_flat.h"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

/* The host id of processor i, or of the memory (i < 0): "RAM", "P<i>". */
static std::string host_id(int i)
{
    return i < 0 ? std::string("RAM") : "P" + std::to_string(i);
}

/* A FATPIPE link of bandwidth bw and latency lat in zone. */
static sg4::Link *fatpipe(sg4::NetZone *zone, const std::string &id, double bw, double lat)
{
    sg4::Link *link = zone->create_link(id, bw);
    link->set_latency(lat)->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE);
    return link;
}

/* Up to HS_FLAT_PAIR_LINKS_MAX processors, the zone the generated file was:
 * routing Full, one link per ordered pair of hosts, created in its order
 * (hosts, then links, then routes). */
static void pair_zone(const struct hs_flat *flat, double bw)
{
    sg4::NetZone *zone = sg4::create_full_zone("flat");
    std::vector<sg4::Host *> hosts;
    for (int i = -1; i < flat->p; i++) {
        sg4::Host *host = zone->create_host(host_id(i), i < 0 ? 1 : flat->speeds ? flat->speeds[i] : flat->speed);
        host->set_property("kind", i < 0 ? "ram" : "proc");
        hosts.push_back(host);
    }
    int n = flat->p + 1;
    std::vector<sg4::Link *> links((size_t)n * n, nullptr);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j)
                links[(size_t)i * n + j] = fatpipe(zone, "net-" + host_id(i - 1) + "-" + host_id(j - 1), bw, flat->lat);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            if (i != j)
                zone->add_route(hosts[i]->get_netpoint(), hosts[j]->get_netpoint(), nullptr, nullptr,
                                {sg4::LinkInRoute(links[(size_t)i * n + j])}, false);
    zone->seal();
}

/* Past it, a star zone: each host's link out (latency lat) and link in
 * (latency 0), no route table. */
static void star_zone(const struct hs_flat *flat, double bw)
{
    sg4::NetZone *zone = sg4::create_star_zone("flat");
    for (int i = -1; i < flat->p; i++) {
        std::string id = host_id(i);
        sg4::Host *host = zone->create_host(id, i < 0 ? 1 : flat->speeds ? flat->speeds[i] : flat->speed);
        host->set_property("kind", i < 0 ? "ram" : "proc");
        sg4::Link *out = fatpipe(zone, id + "-out", bw, flat->lat), *in = fatpipe(zone, id + "-in", bw, 0.0);
        zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(out)}, false);
        zone->add_route(nullptr, host->get_netpoint(), nullptr, nullptr, {sg4::LinkInRoute(in)}, false);
    }
    zone->seal();
}

extern "C" int hs_sg_flat_zone(const struct hs_flat *flat, char *err, size_t errlen)
{
    try {
        sg4::Engine::set_config("network/model:CM02");
        double bw = std::isinf(flat->bw) ? HS_FLAT_FREE_BW : flat->bw;
        if (flat->p <= HS_FLAT_PAIR_LINKS_MAX)
            pair_zone(flat, bw);
        else
            star_zone(flat, bw);
    } catch (const std::exception &e) {
        std::snprintf(err, errlen, "%s", e.what());
        return -1;
    }
    return 0;
}
