import { LANGUAGE_RECORDS, type LanguageRecord, type Runtime, RuntimeSchema } from "@ensemble/protocol";
import { useEffect, useState } from "react";
import { z } from "zod";
import { apiRequest } from "../../lib/api";

/** A language the picker offers: its record, and the version the server runs when it says. */
export interface PickerLanguage {
  record: LanguageRecord;
  version: string | undefined;
}

/**
 * The picker's languages from the server's runtimes (GET /api/v2/runtimes, public as Piston's),
 * in the records' order, so the spec's JavaScript and Python come first. A runtime is a
 * record's when its language is the record's id or one of its aliases (a Piston server behind
 * PISTON_URL names them its own way). The session's current language is always offered, so
 * the picker can show it; until the list arrives, or if it cannot, every record is offered.
 */
export function pickerLanguages(
  runtimes: readonly Runtime[] | undefined,
  current: string,
  records: readonly LanguageRecord[] = LANGUAGE_RECORDS,
): PickerLanguage[] {
  if (!runtimes) return records.map((record) => ({ record, version: undefined }));
  return records.flatMap((record) => {
    const runtime = runtimes.find((r) => r.language === record.id || record.aliases.includes(r.language));
    if (!runtime && record.id !== current) return [];
    return [{ record, version: runtime?.version }];
  });
}

let loaded: Promise<Runtime[] | undefined> | undefined;

/** The server's runtimes, fetched once per page; undefined until they arrive or when they cannot. */
export function useRuntimes(): Runtime[] | undefined {
  const [runtimes, setRuntimes] = useState<Runtime[] | undefined>(undefined);
  useEffect(() => {
    let isCurrent = true;
    loaded ??= apiRequest("/api/v2/runtimes", z.array(RuntimeSchema), { auth: false }).catch(() => {
      // Asked again on the next editor screen.
      loaded = undefined;
      return undefined;
    });
    void loaded.then((list) => {
      if (isCurrent) setRuntimes(list);
    });
    return () => {
      isCurrent = false;
    };
  }, []);
  return runtimes;
}
