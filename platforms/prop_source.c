/* platforms/prop_source.c — the comment written just before a property of a
 * platform file, read with libxml2 (no network, no DTD, no entity; in
 * recovery, since SimGrid reads comments holding "--", such as
 * platforms/idgraf.xml's "--p2p", which strict XML forbids). A comment
 * before a run of properties is the source of each of them (mapuche.xml
 * writes one for its five runtime costs), the nearest one winning. */
#include "platforms/prop_source.h"
#include "base/util.h"

#include <ctype.h>
#include <stdbool.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>

static bool blank(const xmlNode *n)
{
    if (n->type != XML_TEXT_NODE)
        return false;
    for (const xmlChar *c = n->content; c && *c; c++)
        if (!isspace(*c))
            return false;
    return true;
}

static const xmlNode *find_prop(const xmlNode *n, const char *id)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (xmlStrcmp(n->name, BAD_CAST "prop") == 0) {
            xmlChar *v = xmlGetProp(n, BAD_CAST "id");
            bool match = v && strcmp((const char *)v, id) == 0;
            xmlFree(v);
            if (match)
                return n;
        }
        const xmlNode *in = find_prop(n->children, id);
        if (in)
            return in;
    }
    return NULL;
}

char *hs_prop_source(const char *file, const char *id)
{
    xmlDocPtr doc = xmlReadFile(file, NULL, XML_PARSE_NONET | XML_PARSE_RECOVER | XML_PARSE_NOERROR |
                                                XML_PARSE_NOWARNING);
    if (!doc)
        return NULL;
    const xmlNode *p = find_prop(xmlDocGetRootElement(doc), id), *c = p ? p->prev : NULL;
    while (c && (blank(c) || (c->type == XML_ELEMENT_NODE && xmlStrcmp(c->name, BAD_CAST "prop") == 0)))
        c = c->prev;
    char *text = NULL;
    if (c && c->type == XML_COMMENT_NODE && c->content) {
        /* on one line: each run of spaces and line breaks one space, none at the ends */
        const char *s = (const char *)c->content;
        size_t n = 0;
        text = hs_xmalloc(strlen(s) + 1);
        for (; *s; s++)
            if (!isspace((unsigned char)*s))
                text[n++] = *s;
            else if (n && text[n - 1] != ' ')
                text[n++] = ' ';
        n -= n && text[n - 1] == ' ';
        text[n] = '\0';
        if (!n) {
            free(text);
            text = NULL;
        }
    }
    xmlFreeDoc(doc);
    return text;
}
