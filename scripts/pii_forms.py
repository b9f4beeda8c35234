#!/usr/bin/env python3
"""Writes data/samples/fixtures/pii/*_forms.* and forms_needles.txt (P5).

Every contact-data form the scrubber knows (phones in every national and
foreign grouping, disguised and encoded e-mails) is planted in every text
field of a record of each adapter's feed shape (one record per form, the
digits unique per field), postal codes are replaced by the form, and two more
records carry contact data as their id. The needles are what would show if a
form got through: an e-mail's local part, a phone's digits (compared with
separators removed). Run from the project root; the output is committed.
"""
import copy
import json
import os
import xml.etree.ElementTree as ET

OUT = "data/samples/fixtures/pii"


def forms(n):
    """The forms, each with the unique number n in it, and their needles."""
    d = f"{n:06d}"  # six unique digits
    a, b = d[:3], d[3:]
    mail = f"buzon{n}"
    return [
        (f"{mail}.apellido@example.es", mail),
        (f"+34 912 {a} {b}", f"912{a}{b}"),
        (f"0034912{a}{b}", f"912{a}{b}"),
        (f"0034 934 {a} {b}", f"934{a}{b}"),
        (f"(+34) 983 {a[:2]} {a[2]}{b[0]} {b[1:]}", f"983{a}{b}"),
        (f"91 2{a}{b}", f"912{a}{b}"),
        (f"(91) 2{a[:2]} {a[2]}{b[0]} {b[1:]}", f"912{a}{b}"),
        (f"(912) {a} {b}", f"912{a}{b}"),
        (f"912\u2013{a}\u2013{b}", f"912{a}{b}"),
        (f"91\u20142{a[:2]}\u2014{a[2]}{b[0]}\u2014{b[1:]}", f"912{a}{b}"),
        (f"912.{a}.{b}", f"912{a}{b}"),
        (f"6{a}{b}11", f"6{a}{b}11"),
        (f"700 {a} {b}", f"700{a}{b}"),
        (f"900 {a} {b}", f"900{a}{b}"),
        (f"0033 1 {a[:2]} {a[2]}{b[0]} {b[1:]} 14", f"1{a}{b}14"),
        (f"+33 1 {a[:2]} {a[2]}{b[0]} {b[1:]} 89", f"1{a}{b}89"),
        (f"913{a}{b} /734", f"913{a}{b}"),
        (f"{mail} at example dot es", mail),
        (f"{mail} arroba example punto es", mail),
        (f"{mail} (at) example.es", mail),
        (f"{mail} [at] example [dot] es", mail),
        (f"{mail}\uff20example.es", mail),
        (f"{mail}\u200b@example.es", mail),
        (f"jos\u00e9.{mail}@example.es", mail),
        (f"{mail}@correo.espa\u00f1a.es", mail),
        (f"{mail}@xn--espaa-rta.es", mail),
        (f"mailto%3A{mail}%40example.es", mail),
        (f"{mail}&#64;example.es", mail),
        (f"{mail}<span>@</span>example.es", mail),
        ("\uff19\uff11\uff12 " + f"{a} {b}", f"912{a}{b}"),
        # In links, attributes and comments, glued labels, words
        # and signs for the `@` and the dot
        (f"https://wa.me/34655{a}{b}", f"655{a}{b}"),
        (f"api.whatsapp.com/send?phone=34656{a}{b}&text=Hola", f"656{a}{b}"),
        (f'<a href="tel:+34657{a}{b}">Llámanos</a>', f"657{a}{b}"),
        (f'<a href="mailto:{mail}@example.es">Escríbenos</a>', mail),
        (f"{mail}<!-- x -->@example.es", mail),
        (f"Bizum658{a}{b}", f"658{a}{b}"),
        (f"{mail} arrova example punt cat", mail),
        (f"{mail} en example punto es", mail),
        (f"{mail}@example,es", mail),
        (f'"{mail}"@example.es', mail),
        (f"{mail} @ gmail", mail),
        (f"{mail}@[192.168.1.20]", mail),
        (f"{mail}&#8203;@example.es", mail),
        (f"{mail}%2540example.es", mail),
        (f"{mail}\u2800@\u2800example.es", mail),
    ]


KEEP = {
    # ids, dates, coordinates, codes the parsers need as they are
    "madrid": {"id", "uid", "dtstart", "dtend", "excluded-days", "@id", "@context", "latitude", "longitude", "days", "frequency", "interval"},
    "diba": {"acte_id", "data_inici", "data_fi", "localitzacio", "centre_municipal", "ine", "ine6", "comarca_codi", "provincia_codi"},
    "jcyl": {"datasetid", "recordid", "fecha_inicio", "fecha_fin", "record_timestamp", "geometry", "type"},
}
POSTAL = {"postal-code", "codi_postal", "zipcode"}


def plant(value, key, form, keep):
    """`value` with the form planted in every text of it."""
    if isinstance(value, dict):
        return {k: plant(v, k, form, keep) for k, v in value.items()}
    if isinstance(value, list):
        return [plant(v, key, form, keep) for v in value]
    if isinstance(value, str) and key not in keep:
        return form if key in POSTAL else f"{value} {form}"
    return value


def main():
    needles = []
    n = 100
    # JSON feeds: (adapter, template fixture, list of records in it, id key, where records live)
    for adapter, src, id_key in [("madrid", "madrid.json", "id"), ("diba", "diba_ca.json", "acte_id"), ("jcyl", "jcyl.json", None)]:
        doc = json.load(open(os.path.join(OUT, src), encoding="utf-8"))
        records = doc["@graph"] if adapter == "madrid" else doc["elements"] if adapter == "diba" else doc
        template = records[0]
        out = []
        for k in range(len(forms(0))):
            rec = copy.deepcopy(template)
            # unique digits per field
            def walk(v, key):
                if isinstance(v, dict):
                    return {kk: walk(vv, kk) for kk, vv in v.items()}
                if isinstance(v, list):
                    return [walk(x, key) for x in v]
                if isinstance(v, str) and key not in KEEP[adapter]:
                    nonlocal_n[0] += 1
                    form, needle = forms(nonlocal_n[0])[k]
                    needles.append(needle)
                    return plant(v, key, form, KEEP[adapter])
                return v
            nonlocal_n = [n]
            rec = walk(rec, None)
            n = nonlocal_n[0] + 1
            new_id = 7000 + k
            if adapter == "madrid":
                rec["id"] = rec["uid"] = f"5199{new_id}"
            elif adapter == "diba":
                rec["acte_id"] = f"agendaturisme9{new_id}"
            else:
                rec["fields"]["id_evento"] = 1285799900000 + new_id
                rec["recordid"] = f"{new_id:040d}"
            out.append(rec)
        # Two records whose id is contact data: refused, never quoted.
        for bad, needle in [("buzonid1@example.es", "buzonid1"), ("+34 600 98 76 54", "600987654")]:
            rec = copy.deepcopy(template)
            if adapter == "madrid":
                rec["id"] = rec["uid"] = bad
            elif adapter == "diba":
                rec["acte_id"] = bad
            else:
                rec["fields"]["id_evento"] = bad
            needles.append(needle)
            out.append(rec)
        if adapter == "madrid":
            doc["@graph"] = out
        elif adapter == "diba":
            doc["elements"] = out
        else:
            doc = out
        with open(os.path.join(OUT, f"{adapter}_forms.json"), "w", encoding="utf-8") as f:
            json.dump(doc, f, ensure_ascii=False, indent=1)
    # esmadrid's XML
    tree = ET.parse(os.path.join(OUT, "esmadrid.xml"))
    root = tree.getroot()
    template = root.find("service")
    for s in list(root):
        root.remove(s)
    keep = {"language", "latitude", "longitude", "inicio", "fin", "dias", "idrt", "country"}
    keep_items = {"idTipo", "idCategoria", "idSubCategoria"}
    for k in range(len(forms(0))):
        svc = copy.deepcopy(template)
        svc.set("id", f"19{7000 + k}")
        for el in svc.iter():
            if el.tag in keep or el.get("name") in keep_items or el.tag == "url" or el.text is None or not el.text.strip():
                continue
            n += 1
            form, needle = forms(n)[k]
            needles.append(needle)
            el.text = form if el.tag in POSTAL else f"{el.text} {form}"
        root.append(svc)
    for bad, needle in [("buzonid2@example.es", "buzonid2"), ("+34 600 98 76 55", "600987655")]:
        svc = copy.deepcopy(template)
        svc.set("id", bad)
        needles.append(needle)
        root.append(svc)
    tree.write(os.path.join(OUT, "esmadrid_forms.xml"), encoding="UTF-8", xml_declaration=True)
    with open(os.path.join(OUT, "forms_needles.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(sorted(set(needles))) + "\n")


if __name__ == "__main__":
    main()
