#!/usr/bin/env node
// Lists exports of the package's code (nodes/, credentials/) that nothing uses: no other file
// imports them and their own file does not use them either (dead code). Part of `npm run lint`.
// The entry points n8n loads (the classes of *.node.ts and *.credentials.ts) are exempt.
'use strict';
const path = require('node:path');
const ts = require('typescript');

const root = path.join(__dirname, '..');
const configFile = ts.readConfigFile(path.join(root, 'tsconfig.test.json'), ts.sys.readFile);
const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();

const isPackageFile = (file) =>
	/^(nodes|credentials)\//.test(path.relative(root, file)) && !file.endsWith('.d.ts');
const isEntryPoint = (file) => /\.(node|credentials)\.ts$/.test(file);

const original = (symbol) =>
	symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
const used = new Set();
const isDeclarationName = (node) =>
	(node.parent && node.parent.name === node && ts.isDeclarationStatement(node.parent)) ||
	(ts.isVariableDeclaration(node.parent) && node.parent.name === node);
const wholeModules = new Set();

for (const source of program.getSourceFiles()) {
	if (source.isDeclarationFile) continue;
	ts.forEachChild(source, function visit(node) {
		if (ts.isIdentifier(node) && !isDeclarationName(node)) {
			const symbol = original(checker.getSymbolAtLocation(node));
			if (symbol) used.add(symbol);
		} else if (ts.isImportSpecifier(node) || ts.isExportSpecifier(node)) {
			const symbol = original(checker.getSymbolAtLocation(node.name));
			if (symbol) used.add(symbol);
		} else if (ts.isImportClause(node) && node.name) {
			const symbol = original(checker.getSymbolAtLocation(node.name));
			if (symbol) used.add(symbol);
		} else if (
			ts.isNamespaceImport(node) ||
			(ts.isExportDeclaration(node) && !node.exportClause && node.moduleSpecifier)
		) {
			const specifier = ts.isNamespaceImport(node)
				? node.parent.parent.moduleSpecifier
				: node.moduleSpecifier;
			const moduleSymbol = checker.getSymbolAtLocation(specifier);
			if (moduleSymbol) wholeModules.add(moduleSymbol);
		}
		ts.forEachChild(node, visit);
	});
}

const unused = [];
for (const source of program.getSourceFiles()) {
	if (!isPackageFile(source.fileName) || isEntryPoint(source.fileName)) continue;
	const moduleSymbol = checker.getSymbolAtLocation(source);
	if (!moduleSymbol || wholeModules.has(moduleSymbol)) continue;
	for (const exported of checker.getExportsOfModule(moduleSymbol)) {
		if (used.has(original(exported))) continue;
		const declaration = exported.declarations?.[0];
		const line = declaration
			? source.getLineAndCharacterOfPosition(declaration.getStart()).line + 1
			: 0;
		unused.push(`${path.relative(root, source.fileName)}:${line} ${exported.name}`);
	}
}

if (unused.length > 0) {
	console.error(`Exports that nothing uses (remove the code):\n  ${unused.join('\n  ')}`);
	process.exit(1);
}
console.log('unused-exports: none');
