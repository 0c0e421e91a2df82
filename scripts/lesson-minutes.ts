/** Writes src/app/lessonMinutes.json: each lesson's estimated minutes from its MDX (src/app/lessonTime.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { computeLessonMinutes } from '../src/app/lessonMinutesFromFiles';

const out = resolve(import.meta.dirname, '../src/app/lessonMinutes.json');
writeFileSync(out, JSON.stringify(computeLessonMinutes(readFileSync), null, 2) + '\n');
console.log(`wrote ${out}`);
