// Copies the icons into dist/ after tsc, keeping the layout the node and credential files
// point at (`file:../../icons/...` from dist/nodes/<Node>/, `file:../icons/...` from dist/credentials/).
const { src, dest } = require('gulp');

function buildIcons() {
	return src('icons/**/*.{png,svg}', { encoding: false }).pipe(dest('dist/icons'));
}

exports['build:icons'] = buildIcons;
