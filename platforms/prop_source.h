/* platforms/prop_source.h — the source a platform file writes beside a
 * property: the comment just before its <prop id="..."> (the shipped files
 * write each value's source or its ASSUMPTION label there), for `hetsim
 * platform` to say where a number comes from. */
#ifndef HS_PROP_SOURCE_H
#define HS_PROP_SOURCE_H

/* The comment just before the first <prop id="id"> of the XML file (other
 * <prop>s and whitespace between them allowed: a comment before a run of
 * properties is the source of each), on one line, or NULL when it has none
 * or the file cannot be read. The caller frees it. */
char *hs_prop_source(const char *file, const char *id);

#endif
